/** Staff fulfil paid requests: open the request from its task, reveal its password, record it done, failed, or failed through the customer's error. */
import type { Handlers } from '../../contract/handlers';
import { ok } from '../../http/errors';
import { msg } from '../../http/messages';
import type { DB } from '../../db/database';
import { searchCurrencyPayments } from './currency-payments';
import type { FulfilmentService } from './service';

export function fulfilmentHandlers(
  service: FulfilmentService,
  db: DB,
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
    searchCurrencyPayments: async ({ body }) => ok(await searchCurrencyPayments(db, body ?? {})),

    fetchFulfilmentTaskData: async ({ body, principal }) => ok(await service.taskData(principal!, body.taskId)),

    revealPurchaseSecret: async ({ body, principal }) =>
      ok({ fields: await service.revealSecret(principal!, body.purchase) }),

    uafCprDone: async ({ body, principal }) => ok(await service.done(principal!, body), msg('fulfilment.done')),

    uafCprFailed: async ({ body, principal }) =>
      ok(await service.failed(principal!, body.purchase, body.reason), msg('fulfilment.failed')),

    uafCprRefundUserError: async ({ body, principal }) =>
      ok(await service.refundUserError(principal!, body.purchase, body.reason), msg('fulfilment.refundedUserError')),
  };
}
