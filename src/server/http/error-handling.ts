/**
 * Every failure gets the envelope `{result: false, msg}` with a Persian message: the one error handler, and the
 * answer written on the raw socket for errors Node's HTTP parser meets before Fastify sees a request.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance } from 'fastify';
import { inputDatabaseError } from './database-errors';
import { RETRY_AFTER_SECONDS, unavailableDependency } from './dependency-errors';
import { HttpError } from './errors';
import { type MessageKey, msg } from './messages';

/** Fastify's own client errors, by code, and the Persian message each becomes. */
const FASTIFY_ERROR_MESSAGES: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'http.invalidJson',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'http.invalidJson',
  FST_ERR_CTP_BODY_TOO_LARGE: 'http.payloadTooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'http.unsupportedMediaType',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'http.badRequest',
};
/**
 * The one error handler: an HttpError is answered with its status and Persian message, Fastify's own client errors
 * and input the database refused with a 4xx in Persian, a dependency out of reach with a 503, anything else with a
 * 500 that says nothing of its cause.
 */
export function installErrorHandler(fastify: FastifyInstance): void {
  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ result: false, msg: error.message, data: error.data });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const key = FASTIFY_ERROR_MESSAGES[error.code] ?? (status === 413 ? 'http.payloadTooLarge' : 'http.badRequest');
      return reply.status(status).send({ result: false, msg: msg(key), data: null });
    }
    const fromInput = inputDatabaseError(error);
    if (fromInput) {
      // Input the contract let through but the database refused (a value its column cannot hold, a missing row):
      // the client's fault, logged as a warning with the SQLSTATE so a too-loose contract bound gets noticed.
      // Only the SQLSTATE and PostgreSQL's text: the error also carries the query's parameters, which are input.
      request.log.warn({ sqlState: fromInput.sqlState, reason: error.message }, 'database refused input');
      return reply.status(fromInput.status).send({ result: false, msg: msg(fromInput.message), data: null });
    }
    const away = unavailableDependency(error);
    if (away) {
      // The database or Redis is out of reach for a while: the request was fine, a retry in a few seconds works.
      request.log.warn({ dependency: away, reason: error.message }, 'dependency unavailable');
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ result: false, msg: msg('http.dependencyUnavailable'), data: null });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ result: false, msg: msg('http.internal'), data: null });
  });
}
/**
 * What helmet puts on every answer, for the answers written before Fastify (and so helmet) sees a request: a JSON
 * envelope that nothing may sniff, frame or run (decision 013).
 */
const RAW_ANSWER_HEADERS =
  "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n" +
  'X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n' +
  'Cache-Control: no-store\r\n';

/** Fastify's clientErrorHandler: the raw socket gets a whole HTTP answer with the envelope, then is closed. */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, key]: [number, MessageKey] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'http.requestTimeout']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'http.headersTooLarge']
        : [400, 'http.badRequest'];
  this.log.debug({ code: error.code }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ result: false, msg: msg(key), data: null });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n${RAW_ANSWER_HEADERS}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
