/** Staff fulfil paid requests: open the request from its task, reveal its password, record it done, failed, or failed through the customer's error. */
import type { Handlers } from '../../contract/handlers';
import { ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { searchCurrencyPayments } from './currency-payments';
import { done, failed, refundUserError } from './decisions';
import type { FulfilmentDeps } from './deps';
import { revealSecret, taskData } from './task-view';

export function fulfilmentHandlers(
  deps: FulfilmentDeps,
): Pick<
  Handlers,
  | 'fetchFulfilmentTaskData'
  | 'revealPurchaseSecret'
  | 'uafCprDone'
  | 'uafCprFailed'
  | 'uafCprRefundUserError'
  | 'searchCurrencyPayments'
> {
  return {
    searchCurrencyPayments: async ({ body }) => ok(await searchCurrencyPayments(deps.db, body ?? {})),

    fetchFulfilmentTaskData: async ({ body, principal }) => ok(await taskData(deps, principal!, body.taskId)),

    revealPurchaseSecret: async ({ body, principal }) =>
      ok({ fields: await revealSecret(deps, principal!, body.purchase) }),

    uafCprDone: async ({ body, principal }) => ok(await done(deps, principal!, body), msg('fulfilment.done')),

    uafCprFailed: async ({ body, principal }) =>
      ok(await failed(deps, principal!, body.purchase, body.reason), msg('fulfilment.failed')),

    uafCprRefundUserError: async ({ body, principal }) =>
      ok(await refundUserError(deps, principal!, body.purchase, body.reason), msg('fulfilment.refundedUserError')),
  };
}
