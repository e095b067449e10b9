/** Errors that become `{result: false, msg, data}` responses with the right HTTP status. */
import { type MessageKey, msg } from './messages';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly data: unknown = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  static of(statusCode: number, key: MessageKey, params?: Record<string, string | number>, data?: unknown): HttpError {
    return new HttpError(statusCode, msg(key, params), data ?? null);
  }
}

export const badRequest = (message: string, data?: unknown) => new HttpError(400, message, data ?? null);
export const unauthorized = () => HttpError.of(401, 'http.unauthorized');
export const forbidden = () => HttpError.of(403, 'http.forbidden');
export const notFound = (message = msg('http.notFound')) => new HttpError(404, message);
export const conflict = (message: string, data?: unknown) => new HttpError(409, message, data ?? null);
export const unprocessable = (message: string, data?: unknown) => new HttpError(422, message, data ?? null);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, msg('http.tooManyRequests'), null, { 'retry-after': String(retryAfterSeconds) });

export interface Envelope<T> {
  result: boolean;
  msg: string;
  data: T;
}

export function ok<T>(data: T, message = ''): Envelope<T> {
  return { result: true, msg: message, data };
}
