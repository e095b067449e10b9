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
  ms = 5000,
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
