/** Desk catalogue, price inquiry, request submission and request lists. */
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { listOf } from '../../lib/paging';
import type { LiveEvents } from '../../realtime/events';
import type { Catalogue } from '../desks';
import type { RequestDeps } from './deps';
import { promiseRecordsForStaff, publicPromiseRecord } from './promises';
import { fetchDeskDraft, removeDeskDraft, saveDeskDraft, searchDeskDrafts } from './drafts';
import { searchPurchases } from './purchase-search';
import { priceInquiry } from './quotes';
import { submit } from './submission';

export function requestHandlers(
  db: DB,
  catalogue: Catalogue,
  requests: RequestDeps,
  live: LiveEvents,
): Pick<
  Handlers,
  | 'fetchCatalogue'
  | 'fetchPromiseRecord'
  | 'searchPromiseRecords'
  | 'priceInquiry'
  | 'submitRequest'
  | 'searchMyPurchases'
  | 'searchPurchases'
  | 'searchPurchaseStates'
  | 'fetchDeskDraft'
  | 'saveDeskDraft'
  | 'removeDeskDraft'
  | 'searchDeskDrafts'
> {
  return {
    fetchCatalogue: async () =>
      ok({
        categories: catalogue.categories,
        desks: catalogue.desks,
        // A form's own tests are for its editors and the publish check, not bytes every customer's page downloads.
        forms: catalogue.forms.map(({ cases: _cases, ...form }) => form),
      } as never),

    // The desk's promises kept, in public (decision 041): counts only, served from memory for a few seconds.
    fetchPromiseRecord: async ({ params }) =>
      ok({ record: await publicPromiseRecord(db, catalogue, params.desk ?? '') }),

    searchPromiseRecords: async () => ok(await promiseRecordsForStaff(db, catalogue)),

    priceInquiry: async ({ params, body, principal }) =>
      ok(await priceInquiry(requests, params.desk ?? '', body as Record<string, unknown>, principal!)),

    submitRequest: async ({ params, body, principal, request }) => {
      const key = request.headers['idempotency-key'];
      const { purchase, replayed } = await submit(
        requests,
        params.desk ?? '',
        body as Record<string, unknown>,
        typeof key === 'string' ? key : undefined,
        principal!,
      );
      if (!replayed) live.purchaseChanged(principal!.uid, { purchaseId: purchase.id, state: purchase.state });
      return ok(purchase, msg('request.created'));
    },

    fetchDeskDraft: async ({ params, principal }) =>
      ok({ draft: await fetchDeskDraft(requests, principal!.userId, params.desk ?? '') } as never),
    saveDeskDraft: async ({ params, body, principal }) =>
      ok(await saveDeskDraft(requests, principal!.userId, params.desk ?? '', body.data as Record<string, unknown>)),
    removeDeskDraft: async ({ params, principal }) => {
      await removeDeskDraft(db, principal!.userId, params.desk ?? '');
      return ok({ desk: params.desk ?? '' });
    },
    searchDeskDrafts: async ({ principal }) => ok({ items: await searchDeskDrafts(requests, principal!.userId) }),

    searchMyPurchases: async ({ body, principal }) =>
      ok(await searchPurchases(requests, { ...(body ?? {}), userId: principal!.userId })),

    searchPurchases: async ({ body }) => ok(await searchPurchases(requests, body ?? {})),

    searchPurchaseStates: async () => {
      const items = await db
        .selectFrom('purchaseStates')
        .select(['identifier', 'title', 'color', 'stateIsFinal', 'stateIsFailure'])
        .orderBy('sortOrder')
        .execute();
      return ok(listOf(items));
    },
  };
}
