/** The real laravel-echo client over socket.io-client, as the web app uses it, for Node tests. */
import Echo from 'laravel-echo';
import { io, type Socket } from 'socket.io-client';

export function connectEcho(url: string, token?: string): Echo<'socket.io'> {
  return new Echo({
    broadcaster: 'socket.io',
    client: io,
    host: url,
    transports: ['websocket'],
    auth: {
      headers: token ? { Authorization: `Bearer ${token}`, 'X-CSRF-TOKEN': 'test' } : { 'X-CSRF-TOKEN': 'test' },
    },
  });
}

/** Resolves with the first payload of `event` on `channel`, or rejects after `ms`. */
export function nextEvent<T>(
  channel: { listen(event: string, cb: (data: T) => void): unknown },
  event: string,
  ms = 15_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    channel.listen(event, (data: T) => {
      clearTimeout(timer);
      resolve(data);
    });
  });
}

/** The socket.io-client socket under Echo (Echo types it loosely). */
export const socketOf = (echo: Echo<'socket.io'>) => echo.connector.socket as unknown as Socket;

export async function waitConnected(echo: Echo<'socket.io'>): Promise<void> {
  const socket = socketOf(echo);
  if (socket.connected) return;
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (e: Error) => reject(e));
  });
}

/**
 * The server's answer to subscribing `channel` (its full name): 'joined', or the refusal's status.
 * Call before subscribing; the server answers each subscribe with subscription_succeeded or subscription_error.
 */
export function subscription(echo: Echo<'socket.io'>, channel: string, ms = 15_000): Promise<'joined' | number> {
  const socket = socketOf(echo);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to subscribing ${channel} within ${ms} ms`)), ms);
    const done = (answer: 'joined' | number) => {
      clearTimeout(timer);
      socket.off('subscription_succeeded', onJoined);
      socket.off('subscription_error', onError);
      resolve(answer);
    };
    const onJoined = (name: string) => name === channel && done('joined');
    const onError = (name: string, status: number) => name === channel && done(status);
    socket.on('subscription_succeeded', onJoined);
    socket.on('subscription_error', onError);
  });
}
