/**
 * A socket.io server at /socket.io speaking Laravel Echo's socket.io protocol (as laravel-echo-server does):
 * the client emits `subscribe` / `unsubscribe` with `{channel, auth: {headers}}`; each event reaches the
 * channel's room as `(eventName, channelName, data)`; a refused private subscription gets
 * `subscription_error (channel, status)`. With Redis, the adapter makes every process deliver every event.
 * The HTTP endpoints /broadcasting/auth and /broadcasting/user-auth answer the same questions for Bearer tokens.
 */
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import type { Authenticator, Principal } from '../contract/handlers';
import { HttpError } from '../http/errors';
import { msg } from '../http/messages';
import { authorizeChannel } from './channels';

interface SubscribePayload {
  channel?: unknown;
  auth?: { headers?: Record<string, unknown> };
}

export interface Broadcaster {
  emit(channel: string, event: string, data: unknown): void;
}

/** A request-like object so the HTTP authenticator can read a socket's auth headers. */
function pseudoRequest(headers: Record<string, unknown> | undefined): FastifyRequest {
  const lower: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (typeof v === 'string') lower[k.toLowerCase()] = v;
  return { headers: lower } as unknown as FastifyRequest;
}

export function attachRealtime(
  fastify: FastifyInstance,
  authenticate: Authenticator,
  redis: Redis | null,
): { io: Server; broadcaster: Broadcaster } {
  const io = new Server(fastify.server, {
    path: '/socket.io',
    serveClient: false,
    cors: { origin: false },
    // Long enough for a phone on a slow network, short enough to notice a dead one.
    pingInterval: 25_000,
    pingTimeout: 20_000,
  });
  if (redis) {
    const pub = redis.duplicate();
    const sub = redis.duplicate();
    pub.on('error', () => {});
    sub.on('error', () => {});
    io.adapter(createAdapter(pub, sub, { key: 'socket.io' }));
    fastify.addHook('onClose', async () => {
      pub.disconnect();
      sub.disconnect();
    });
  }

  io.on('connection', (socket: Socket) => {
    socket.on('subscribe', async (payload: SubscribePayload) => {
      const channel = typeof payload?.channel === 'string' ? payload.channel : '';
      if (!channel || channel.length > 200) return;
      let principal: Principal | null = null;
      if (channel.startsWith('private-') || channel.startsWith('presence-')) {
        principal = await authenticate(pseudoRequest(payload.auth?.headers)).catch(() => null);
      }
      const decision = authorizeChannel(channel, principal);
      if (!decision.allowed) {
        socket.emit('subscription_error', channel, decision.status);
        return;
      }
      await socket.join(channel);
    });
    socket.on('unsubscribe', async (payload: SubscribePayload) => {
      if (typeof payload?.channel === 'string') await socket.leave(payload.channel);
    });
  });

  fastify.addHook('onClose', async () => {
    await new Promise<void>((resolve) => io.close(() => resolve()));
  });

  const authorizeHttp = async (request: FastifyRequest) => {
    const body = (request.body ?? {}) as { channel_name?: unknown };
    const channel = typeof body.channel_name === 'string' ? body.channel_name : '';
    const principal = await authenticate(request);
    const decision = authorizeChannel(channel, principal);
    if (!decision.allowed)
      throw new HttpError(decision.status, msg(decision.status === 401 ? 'http.unauthorized' : 'http.forbidden'));
    return { principal, channel };
  };
  fastify.post('/broadcasting/auth', async (request) => {
    const { channel } = await authorizeHttp(request);
    return { result: true, msg: '', data: { channel } };
  });
  fastify.post('/broadcasting/user-auth', async (request) => {
    const principal = await authenticate(request);
    if (!principal) throw new HttpError(401, msg('http.unauthorized'));
    return { result: true, msg: '', data: { user_data: JSON.stringify({ id: principal.uid }) } };
  });

  return {
    io,
    broadcaster: {
      emit(channel, event, data) {
        io.to(channel).emit(event, channel, data);
      },
    },
  };
}
