/** Errors that become `{result: false, msg, data}` responses with the right HTTP status. */
import { toPersianDigits } from '../../shared/digits';
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

/** A wait in Persian words and digits, e.g. «۲ دقیقه و ۳۰ ثانیه», for messages that say how long. */
export function persianWait(seconds: number): string {
  const total = Math.max(1, Math.ceil(seconds));
  const units: Array<[number, string]> = [
    [Math.floor(total / 3600), 'ساعت'],
    [Math.floor((total % 3600) / 60), 'دقیقه'],
    [total % 60, 'ثانیه'],
  ];
  return units
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${toPersianDigits(n)} ${unit}`)
    .join(' و ');
}

/** 429 with a message (`key`) that says how long to wait through its `{wait}` placeholder. */
export const tooManyRequestsFor = (key: MessageKey, retryAfterSeconds: number) =>
  new HttpError(429, msg(key, { wait: persianWait(retryAfterSeconds) }), null, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

export interface Envelope<T> {
  result: boolean;
  msg: string;
  data: T;
}

export function ok<T>(data: T, message = ''): Envelope<T> {
  return { result: true, msg: message, data };
}
