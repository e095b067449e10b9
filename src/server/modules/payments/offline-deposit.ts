/**
 * Staff record money a customer deposited to one of our bank accounts (api/sys/payOffline): the use case owns its
 * transaction and the announcements; the money goes through receiving.ts. A tracking code is used once in any
 * spelling (tracking-code.ts).
 */
import {
  type OfflineCollectionInput,
  type OfflineCollectionResult,
  type PaymentDeps,
  RECEIVED,
  announceMoney,
  announceTask,
} from './context';
import { type Received, receive } from './receiving';
import { toEnglishDigits, toPersianDigits } from '../../../shared/digits';
import { canonicalMobile } from '../../../shared/mobile';
import type { Principal } from '../../contract/handlers';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { lockPurchase } from '../requests';
import { canonicalTrackingCode } from './tracking-code';
import type { Trx } from '../../db/database';

/**
 * Staff record money a customer deposited to one of our bank accounts (api/sys/payOffline). With an online
 * payment's token it settles that payment as the gateway would have (its request paid when the wallet covers it);
 * with an empty token it credits the wallet of the customer named by `customerMobileNo`. A tracking code is used
 * once, in any spelling (compared in its canonical form: case, digits, spaces, dashes). Audit-logged; the customer is told live.
 */
export async function payOffline(
  deps: PaymentDeps,
  principal: Principal,
  input: OfflineCollectionInput,
): Promise<OfflineCollectionResult> {
  if (input.formIsValid !== true) throw HttpError.of(422, 'collection.formInvalid');
  const trackingCode = toEnglishDigits(input.collectionTrackingCode.trim());
  const trackingCodeCanonical = canonicalTrackingCode(trackingCode);
  const sourceAccountNo = toEnglishDigits(input.collectionSourceAccountNo.trim());
  const token = input.onlineProformaToken.trim();
  if (!trackingCodeCanonical) throw HttpError.of(422, 'collection.trackingCode.required');
  if (!sourceAccountNo) throw HttpError.of(422, 'collection.sourceAccountNo.required');
  const destination = await deps.db
    .selectFrom('internalBankAccounts')
    .select(['id', 'isActive'])
    .where('id', '=', input.collectionDestinationAccount)
    .executeTakeFirst();
  if (!destination?.isActive) throw HttpError.of(422, 'collection.destinationUnknown');

  let result: { collectionId: number; userId: number; purchaseId: number | null } & Received;
  try {
    result = await deps.db.transaction().execute(async (trx) => {
      const used = await trx
        .selectFrom('collections')
        .select('id')
        .where('trackingCodeCanonical', '=', trackingCodeCanonical)
        .executeTakeFirst();
      if (used) throw HttpError.of(409, 'collection.trackingCodeUsed');
      const offline = {
        source: 'offline' as const,
        trackingCode,
        trackingCodeCanonical,
        sourceAccountNo,
        internalBankAccountId: destination.id,
        recordedBy: principal.userId,
      };
      if (token === '') {
        const mobileNo = canonicalMobile(input.customerMobileNo ?? '');
        if (!mobileNo) throw HttpError.of(422, 'collection.customerRequired');
        const customer = await trx
          .selectFrom('users')
          .select('id')
          .where('mobileNo', '=', mobileNo)
          .where('isStaff', '=', false)
          .executeTakeFirst();
        if (!customer) throw HttpError.of(404, 'collection.customerNotFound');
        const received = await receive(trx, deps, {
          userId: customer.id,
          purchase: undefined,
          amount: input.collectionAmount,
          onlineProformaId: null,
          cardMismatch: false,
          collection: offline,
        });
        await auditOffline(trx, principal, received.collectionId, input, null);
        return { ...received, userId: customer.id, purchaseId: null };
      }
      // The same claim as the gateway's settlement, so a callback arriving meanwhile settles nothing twice.
      const proforma = await trx
        .selectFrom('onlineProformas')
        .selectAll()
        .where('callbackToken', '=', token)
        .forUpdate()
        .executeTakeFirst();
      if (!proforma) throw HttpError.of(404, 'collection.proformaNotFound');
      if ((RECEIVED as readonly string[]).includes(proforma.state)) {
        throw HttpError.of(409, 'collection.proformaSettled');
      }
      if (proforma.amount !== input.collectionAmount) {
        throw HttpError.of(422, 'collection.amountMismatch', {
          amount: toPersianDigits(proforma.amount.toLocaleString('en-US')),
        });
      }
      const purchase = proforma.purchaseId === null ? undefined : await lockPurchase(trx, proforma.purchaseId);
      const received = await receive(trx, deps, {
        userId: proforma.userId,
        purchase,
        amount: proforma.amount,
        onlineProformaId: proforma.id,
        cardMismatch: false,
        collection: offline,
      });
      await trx
        .updateTable('onlineProformas')
        .set({
          state: 'settled',
          settledAt: new Date(),
          verified: JSON.stringify({ offline: true, collectionId: received.collectionId, outcome: received.outcome }),
        })
        .where('id', '=', proforma.id)
        .execute();
      await auditOffline(trx, principal, received.collectionId, input, proforma.id);
      return { ...received, userId: proforma.userId, purchaseId: proforma.purchaseId };
    });
  } catch (error) {
    // Two staff recording the same deposit at once: the unique index lets one through.
    if ((error as { code?: string })?.code === '23505') throw HttpError.of(409, 'collection.trackingCodeUsed');
    throw error;
  }
  announceTask(deps, result.task);
  await announceMoney(deps, result.userId, result.purchaseId);
  const outcome = result.outcome === 'success' ? 'success' : 'walletCredited';
  return { collectionId: result.collectionId, purchaseId: result.purchaseId, outcome };
}

export async function auditOffline(
  trx: Trx,
  principal: Principal,
  collectionId: number,
  input: OfflineCollectionInput,
  onlineProformaId: number | null,
): Promise<void> {
  await audit(trx, {
    actorUserId: principal.userId,
    action: 'payOffline',
    entity: 'collection',
    entityId: collectionId,
    after: {
      onlineProformaId,
      amount: input.collectionAmount,
      trackingCode: input.collectionTrackingCode,
      sourceAccountNo: input.collectionSourceAccountNo,
      destinationAccount: input.collectionDestinationAccount,
      customerMobileNo: input.customerMobileNo ?? null,
    },
  });
}
