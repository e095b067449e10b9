/**
 * One write per socket for a broadcast. socket.io's adapter encodes a broadcast's WebSocket frame once per
 * event, as two buffers (header, payload); each socket then sends them corked, as a writev with two parts. To
 * 10,000 sockets that path costs a tenth to a quarter more of the server's CPU than one buffer written plainly
 * (the bench's measure), and the last socket hears the event that much later. Joining the two buffers once per
 * event makes every socket's send one write of the same bytes.
 */
import type { Namespace, ServerOptions } from 'socket.io';

/** What socket.io's `Server#adapter` takes: the adapter class, or a factory such as the Redis adapter's. */
type AdapterFactory = ServerOptions['adapter'];
type Adapter = Namespace['adapter'];

interface FrameOptions {
  wsPreEncodedFrame?: unknown;
}

/** The adapter's encoding step: not part of its typed interface, but what its broadcasts call once per event. */
type Encode = (packet: unknown, options: FrameOptions) => unknown[];

/** Makes `factory`'s adapters hand each socket its broadcast frame as one buffer. */
export function oneWritePerSocket(factory: AdapterFactory): AdapterFactory {
  // A plain function: socket.io calls the factory with `new`, and an object returned from it is the adapter.
  return function adapterWithOneWrite(nsp: Namespace) {
    const adapter = new (factory as new (nsp: Namespace) => Adapter)(nsp);
    const encoding = adapter as unknown as { _encode?: Encode };
    const encode = encoding._encode;
    if (typeof encode !== 'function') return adapter;
    encoding._encode = function (packet, options) {
      const encoded = encode.call(this, packet, options);
      const frame = options.wsPreEncodedFrame;
      if (Array.isArray(frame) && frame.length === 2 && frame.every((part) => Buffer.isBuffer(part))) {
        options.wsPreEncodedFrame = [Buffer.concat(frame as Buffer[])];
      }
      return encoded;
    };
    return adapter;
  } as unknown as AdapterFactory;
}
