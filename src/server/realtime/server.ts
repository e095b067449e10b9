/**
 * A socket.io server at /socket.io speaking Laravel Echo's socket.io protocol (as laravel-echo-server does):
 * the client emits `subscribe` / `unsubscribe` with `{channel, auth: {headers}}`; each event reaches the
 * channel's room as `(eventName, channelName, data)`; a refused private subscription gets
 * `subscription_error (channel, status)` (401/403 refused, 404 no such channel, 429 over the budget, then the
 * socket is dropped) and an accepted one `subscription_succeeded (channel)`. Each socket authenticates once and
 * spends a budget (see connection.ts). With Redis, the adapter makes every process deliver every event.
 * The HTTP endpoints /broadcasting/auth and /broadcasting/user-auth answer the same questions for Bearer tokens.
 */
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import type { Authenticator, Principal } from '../contract/handlers';
import { HttpError } from '../http/errors';
import { msg } from '../http/messages';
import { authorizeChannel, channelKind } from './channels';
import { authorizationOf, ConnectionGuard, limitedLookup } from './connection';
import { oneWritePerSocket } from './one-write';

interface SubscribePayload {
  channel?: unknown;
  auth?: { headers?: Record<string, unknown> };
}

const STATUS_MESSAGES = { 401: 'http.unauthorized', 403: 'http.forbidden', 404: 'http.notFound' } as const;

export interface Broadcaster {
  /** Sends `event` as on `channel` to the sockets in `audience` (default: the channel's own room). */
  emit(channel: string, event: string, data: unknown, audience?: readonly string[]): void;
  /** Sends `event` on `channel` to this process's own sockets only (each process announces its own state). */
  emitLocal(channel: string, event: string, data: unknown): void;
  /** Drops every socket (in every process) that authenticated with the session `tokenId`. */
  endSession(tokenId: number): void;
}

/**
 * Word between the server processes (through the Redis adapter; nothing to do with one process): each process
 * hears what the others `tell`, never its own. Messages sent before a broadcast arrive before it, since both
 * leave on the same Redis connection, so a process forgets a cached rate before its sockets hear of the change.
 */
export interface Peers {
  tell(message: string): void;
  onMessage(handler: (message: string) => void): void;
  /** Called when the word between processes is back after Redis was away: whatever was told meanwhile was missed. */
  onReconnect(handler: () => void): void;
}

const PEER_EVENT = 'arzpay:peer';

/** The internal room of the sockets bound to one session token, so ending the session drops them. */
const sessionRoom = (tokenId: number) => `session:${tokenId}`;

/** A request-like object so the HTTP authenticator can read a socket's Authorization header. */
const pseudoRequest = (authorization: string) => ({ headers: { authorization } }) as unknown as FastifyRequest;

/** `staffActions`: the actions some staff event concerns (channels.ts, staffEventActions), from the composition. */
export function attachRealtime(
  fastify: FastifyInstance,
  authenticate: Authenticator,
  redis: Redis | null,
  staffActions: ReadonlySet<string>,
): { io: Server; broadcaster: Broadcaster; peers: Peers } {
  const io = new Server(fastify.server, {
    path: '/socket.io',
    serveClient: false,
    cors: { origin: false },
    // Long enough for a phone on a slow network, short enough to notice a dead one.
    pingInterval: 25_000,
    pingTimeout: 20_000,
  });
  const reconnectHandlers: Array<() => void> = [];
  if (redis) {
    const pub = redis.duplicate();
    const sub = redis.duplicate();
    pub.on('error', () => {});
    sub.on('error', () => {});
    // The adapter's close() unsubscribes without awaiting: with Redis away at shutdown, the refusal would be an
    // unhandled rejection (which ends a Node process). Leaving channels of a connection that is gone needs no answer.
    const unsubscribe = sub.unsubscribe.bind(sub);
    const punsubscribe = sub.punsubscribe.bind(sub);
    sub.unsubscribe = ((...channels: string[]) => unsubscribe(...channels).catch(() => 0)) as typeof sub.unsubscribe;
    sub.punsubscribe = ((...patterns: string[]) => punsubscribe(...patterns).catch(() => 0)) as typeof sub.punsubscribe;
    // The adapter publishes (every event, every word to the peers) without awaiting: with Redis away, the refusal
    // ioredis gives after its retries would be an unhandled rejection that ends the process (decision 032). An event is
    // live news whose source of truth is the database; what the peers missed is made good on reconnection below.
    const publish = pub.publish.bind(pub);
    pub.publish = ((channel: string, message: string) =>
      publish(channel, message).catch(() => 0)) as typeof pub.publish;
    // Subscribed again after Redis was away: words sent meanwhile (a logout, a posting) never arrived.
    let firstReady = true;
    sub.on('ready', () => {
      if (firstReady) {
        firstReady = false;
        return;
      }
      for (const handler of reconnectHandlers) handler();
    });
    // ioredis prefixes keys, not Pub/Sub channels: without the prefix in the adapter's key, every deployment (and
    // every test server) on one Redis would share rooms, and user 5 of one would hear user 5 of another.
    io.adapter(oneWritePerSocket(createAdapter(pub, sub, { key: `${redis.options.keyPrefix ?? ''}socket.io` })));
    fastify.addHook('onClose', async () => {
      pub.disconnect();
      sub.disconnect();
    });
  } else {
    io.adapter(oneWritePerSocket(io.adapter()!));
  }

  const lookup = limitedLookup((authorization) => authenticate(pseudoRequest(authorization)));

  io.on('connection', (socket: Socket) => {
    const guard = new ConnectionGuard(lookup);
    /** Channel name → the rooms joining it put this socket in. */
    const joined = new Map<string, string[]>();
    // One event at a time per socket: a flood waits here instead of running lookups side by side.
    let queue = Promise.resolve();

    const refuse = (channel: string, status: number) => {
      socket.emit('subscription_error', channel, status);
      if (guard.fail()) socket.disconnect(true);
    };

    const subscribe = async (channel: string, payload: SubscribePayload) => {
      const kind = channelKind(channel);
      let principal: Principal | null = null;
      if (kind === 'staff' || kind === 'user') {
        try {
          principal = await guard.principal(authorizationOf(payload?.auth?.headers));
        } catch {
          socket.emit('subscription_error', channel, 503);
          return;
        }
      }
      const decision = authorizeChannel(channel, principal, staffActions);
      if (!decision.allowed) return refuse(channel, decision.status);
      await socket.join(principal ? [...decision.rooms, sessionRoom(principal.tokenId)] : decision.rooms);
      joined.set(channel, decision.rooms);
      // Not part of laravel-echo-server's protocol: lets a client (and the tests) know the join is done.
      socket.emit('subscription_succeeded', channel);
    };

    const unsubscribe = async (channel: string) => {
      for (const room of joined.get(channel) ?? []) await socket.leave(room);
      joined.delete(channel);
    };

    const onEvent = (kind: 'subscribe' | 'unsubscribe') => (payload: SubscribePayload) => {
      const channel = typeof payload?.channel === 'string' ? payload.channel.slice(0, 200) : '';
      if (!guard.spend()) {
        socket.emit('subscription_error', channel, 429);
        socket.disconnect(true);
        return;
      }
      queue = queue
        .then(() => {
          if (!socket.connected) return;
          return kind === 'subscribe' ? subscribe(channel, payload) : unsubscribe(channel);
        })
        .catch((error: unknown) => fastify.log.warn({ err: error, channel }, 'live subscription failed'));
    };
    socket.on('subscribe', onEvent('subscribe'));
    socket.on('unsubscribe', onEvent('unsubscribe'));
  });

  fastify.addHook('onClose', async () => {
    await new Promise<void>((resolve) => io.close(() => resolve()));
  });

  const authorizeHttp = async (request: FastifyRequest) => {
    const body = (request.body ?? {}) as { channel_name?: unknown };
    const channel = typeof body.channel_name === 'string' ? body.channel_name : '';
    const kind = channelKind(channel);
    // Only a private channel is worth a token lookup.
    const principal = kind === 'staff' || kind === 'user' ? await authenticate(request) : null;
    const decision = authorizeChannel(channel, principal, staffActions);
    if (!decision.allowed) throw new HttpError(decision.status, msg(STATUS_MESSAGES[decision.status]));
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

  const peers: Peers = {
    tell(message) {
      if (redis) io.serverSideEmit(PEER_EVENT, message);
    },
    onReconnect(handler) {
      reconnectHandlers.push(handler);
    },
    onMessage(handler) {
      io.on(PEER_EVENT, (message: unknown) => {
        if (typeof message === 'string') handler(message);
      });
    },
  };

  return {
    io,
    peers,
    broadcaster: {
      emit(channel, event, data, audience) {
        // A socket in several audience rooms still gets the event once.
        io.to(audience ? [...audience] : channel).emit(event, channel, data);
      },
      emitLocal(channel, event, data) {
        io.local.to(channel).emit(event, channel, data);
      },
      endSession(tokenId) {
        io.in(sessionRoom(tokenId)).disconnectSockets(true);
      },
    },
  };
}
