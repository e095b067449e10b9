/** Handler types derived from the generated contract types, so a handler's body and result match the document. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../generated/api';

export interface Principal {
  userId: number;
  uid: string;
  isStaff: boolean;
  actions: ReadonlySet<string>;
  tokenId: number;
}

export type OperationId = keyof operations;

type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type RequestBody<K extends OperationId> = operations[K] extends { requestBody?: infer R }
  ? JsonContent<NonNullable<R>> extends never
    ? Record<string, never>
    : JsonContent<NonNullable<R>>
  : Record<string, never>;

export type ResponseBody<K extends OperationId> = operations[K] extends { responses: { 200: infer R } }
  ? JsonContent<R>
  : never;

export interface HandlerContext<B> {
  body: B;
  params: Record<string, string>;
  query: Record<string, string>;
  principal: Principal | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<K extends OperationId> = (ctx: HandlerContext<RequestBody<K>>) => Promise<ResponseBody<K>>;

export type Handlers = { [K in OperationId]: Handler<K> };

/** Loosely typed view used by the router, which only knows operation ids at run time. */
export type AnyHandler = (ctx: HandlerContext<unknown>) => Promise<unknown>;

export type Authenticator = (request: FastifyRequest) => Promise<Principal | null>;
