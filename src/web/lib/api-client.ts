/**
 * The one way the web talks to the server: openapi-fetch over the generated contract types.
 * A middleware adds X-Requested-With and the Bearer token from localStorage `token`, counts calls in
 * flight (for the progress bar), and turns a falsy `result` into a thrown ApiError carrying the Persian `msg`.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../../generated/api';

export const TOKEN_KEY = 'token';
// schemas/messages/fa.json's `error.fallback`, written out: importing the file put all of it (10 kB gzip) on every
// page for this one line. tests/unit/api-client-messages.test.ts holds the two equal.
export const FALLBACK_MESSAGE = 'خطایی در سیستم رخ داده است. لطفا به کنسول مراجعه نمایید.';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** Finds a human text in a nested error body: response, data, message or msg, up to 10 levels deep. */
export function digMessage(value: unknown, depth = 0): string | null {
  if (depth > 10 || value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() ? value : null;
  if (typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  for (const key of ['msg', 'message']) {
    if (typeof record[key] === 'string' && (record[key] as string).trim()) return record[key] as string;
  }
  for (const key of ['response', 'data', 'body', 'error', 'message', 'msg']) {
    const found = digMessage(record[key], depth + 1);
    if (found) return found;
  }
  return null;
}

type Listener = (inFlight: number) => void;
let inFlight = 0;
const listeners = new Set<Listener>();
const setInFlight = (n: number) => {
  inFlight = n;
  for (const l of listeners) l(inFlight);
};

type UnauthorizedListener = (token: string) => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called with the token of a request the server answered 401 (session ended elsewhere, or expired). */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export function subscribeInFlight(listener: Listener): () => void {
  listeners.add(listener);
  listener(inFlight);
  return () => listeners.delete(listener);
}

const middleware: Middleware = {
  async onRequest({ request }) {
    setInFlight(inFlight + 1);
    request.headers.set('X-Requested-With', 'XMLHttpRequest');
    const token = localStorage.getItem(TOKEN_KEY);
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  async onResponse({ request, response }) {
    setInFlight(Math.max(0, inFlight - 1));
    if (response.status === 401) {
      const sent = /^Bearer (.+)$/.exec(request.headers.get('Authorization') ?? '')?.[1];
      if (sent) for (const listener of unauthorizedListeners) listener(sent);
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('application/json')) {
      if (!response.ok) throw new ApiError(FALLBACK_MESSAGE, response.status, null);
      return response;
    }
    let body: { result?: unknown };
    try {
      body = (await response.clone().json()) as { result?: unknown };
    } catch {
      // The body never arrived whole (navigation, network): a transport failure, not an answer.
      throw new ApiError(FALLBACK_MESSAGE, 0, null);
    }
    if (!response.ok || !body.result) {
      throw new ApiError(digMessage(body) ?? FALLBACK_MESSAGE, response.status, body);
    }
    return response;
  },
  async onError({ error }) {
    setInFlight(Math.max(0, inFlight - 1));
    if (error instanceof ApiError) return error;
    return new ApiError(FALLBACK_MESSAGE, 0, null);
  },
};

export const api = createClient<paths>({ baseUrl: '/' });
api.use(middleware);

/** Unwraps `data` of a successful call; failures have already thrown. */
export async function call<T = unknown>(promise: Promise<{ data?: unknown; error?: unknown }>): Promise<T> {
  const { data, error } = await promise;
  if (error) throw new ApiError(digMessage(error) ?? FALLBACK_MESSAGE, 0, error);
  return (data as { data?: T } | undefined)?.data as T;
}
