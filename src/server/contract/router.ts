/**
 * Registers one Fastify route per contract operation. This is the one place where access (x-access),
 * request validation and response validation happen; handlers only see valid input from allowed callers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, HttpError, unauthorized } from '../http/errors';
import { msg } from '../http/messages';
import { type Contract, type Operation, toRoutePattern } from './contract';
import { findUnstorableText } from './text-guard';
import type { AnyHandler, Authenticator, Principal } from './handlers';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ContractValidator } from './validator';

/** The largest JSON body any operation takes: a desk form with long texts is tens of kilobytes (Fastify's default). */
export const JSON_BODY_LIMIT = 1024 * 1024;
/** The largest upload request: a 5 MB image (@fastify/multipart's fileSize) and its form fields. */
export const UPLOAD_BODY_LIMIT = 6 * 1024 * 1024;

export interface RouterOptions {
  contract: Contract;
  handlers: Record<string, AnyHandler>;
  authenticate: Authenticator;
  validateResponses: boolean;
}

function authorize(operation: Operation, principal: Principal | null): void {
  const { access } = operation;
  if (access.kind === 'public') return;
  if (!principal) throw unauthorized();
  if (access.kind === 'staff' && !(principal.isStaff && principal.actions.has(access.action))) throw forbidden();
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract operation a route serves (set by registerContractRoutes). */
    operationId?: string;
  }
}

/**
 * One validator per contract document in a process: its Ajv holds the whole document and compiles each operation's
 * schemas once, on first use, for every server built from that document (the tests build many in one process). It
 * keeps no state of a request.
 */
const validators = new WeakMap<object, ContractValidator>();
function validatorOf(document: Record<string, unknown>): ContractValidator {
  let validator = validators.get(document);
  if (!validator) validators.set(document, (validator = new ContractValidator(document)));
  return validator;
}

export function registerContractRoutes(app: FastifyInstance, options: RouterOptions): void {
  const { contract, handlers, authenticate } = options;
  const validator = validatorOf(contract.document);
  const missing = contract.operations.filter((op) => !handlers[op.operationId]).map((op) => op.operationId);
  if (missing.length > 0) throw new Error(`contract operations without a handler: ${missing.join(', ')}`);

  // Each operation's validators are compiled on its first call, not here: compiling the whole contract is about half a
  // second of every start, and a process serves few of its operations in its first minutes. A schema ajv cannot
  // compile still fails CI (tests/unit/contract-validators.test.ts compiles every one).
  const compiled = (pointer: string | null) => {
    let fn: ValidateFunction | null | undefined = pointer ? undefined : null;
    return () => (fn === undefined ? (fn = validator.validator(pointer!)) : fn);
  };
  for (const operation of contract.operations) {
    const handler = handlers[operation.operationId] as AnyHandler;
    const requestValidator = compiled(operation.requestSchemaPointer);
    const responseValidator = compiled(options.validateResponses ? operation.responseSchemaPointer : null);

    app.route({
      method: operation.method,
      url: toRoutePattern(operation.path),
      // Metrics label each request with its operation (metrics.ts), never with its path.
      config: { operationId: operation.operationId },
      // JSON bodies are small; an upload carries its image (the multipart plugin caps the file itself).
      bodyLimit: operation.multipart ? UPLOAD_BODY_LIMIT : JSON_BODY_LIMIT,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const principal = await authenticate(request);
        authorize(operation, principal);
        let body: unknown = request.body ?? {};
        for (const input of [body, request.params, request.query]) {
          const field = findUnstorableText(input);
          if (field !== null) throw HttpError.of(400, 'http.unstorableText', { field });
        }
        const validateRequest = requestValidator();
        if (validateRequest) {
          if (!validateRequest(body)) throw new HttpError(400, validator.describe(validateRequest.errors));
        } else if (!operation.multipart) {
          body = {};
        }
        const result = await handler({
          body,
          params: (request.params ?? {}) as Record<string, string>,
          query: (request.query ?? {}) as Record<string, string>,
          principal,
          request,
          reply,
        });
        if (reply.sent) return reply;
        const validateResponse = responseValidator();
        if (validateResponse && !validateResponse(result)) {
          request.log.error(
            // Where and why only: Ajv's verbose errors carry the offending value, which may be a token or a password.
            {
              operationId: operation.operationId,
              errors: validateResponse.errors?.map(({ instancePath, keyword, message }) => ({
                instancePath,
                keyword,
                message,
              })),
            },
            'response does not match the contract',
          );
          throw new HttpError(500, msg('http.internal'));
        }
        return result;
      },
    });
  }
}
