/**
 * A finished request's proof letter (docs/decisions/040-proof-letter.md): what a customer shows an embassy, a
 * university office or an exam body, Persian and English side by side. Every English text is the catalogue's (the
 * desk's `x-title-en`, its reference's, each printed field's), checked by the catalogue check; the rest is what was
 * recorded: the payment abroad, its reference, the payer's profile name, the attached confirmation's SHA-256, and
 * the receipt's verification code.
 */
import type { components } from '../../../generated/api';
import type { Principal } from '../../contract/handlers';
import { HttpError } from '../../http/errors';
import { fullNameOf } from '../../lib/person-names';
import { type PaymentDeps, purchaseOf } from './context';
import { receiptCodeOf, stateOf, verificationUrlOf } from './receipt-verification';

export type ProofLetter = components['schemas']['ProofLetter'];

/**
 * The letter of one of the caller's requests: 404 for another's (as for none), 409 for their own request not carried
 * out (no payment abroad yet).
 */
export async function fetchProofLetter(
  deps: PaymentDeps,
  principal: Principal,
  purchaseId: number,
): Promise<ProofLetter> {
  await purchaseOf(deps, purchaseId, principal.userId);
  const row = await deps.db
    .selectFrom('purchases as p')
    .innerJoin('currencyPayments as c', 'c.purchaseId', 'p.id')
    .innerJoin('currencies as cur', 'cur.id', 'c.currencyId')
    .innerJoin('users as u', (join) => join.on((eb) => eb('u.id', '=', eb.fn.coalesce('p.payerUserId', 'p.userId'))))
    .select([
      'p.id',
      'p.desk',
      'p.state',
      'p.fields',
      'c.amountMinor',
      'cur.code as currencyCode',
      'cur.title as currencyTitle',
      'c.reference',
      'c.receiptSha256',
      'c.createdAt',
      'u.firstName',
      'u.lastName',
    ])
    .where('p.id', '=', purchaseId)
    .where('p.userId', '=', principal.userId)
    .executeTakeFirst();
  if (!row) throw HttpError.of(409, 'proofLetter.notDone');
  const desk = deps.requests.catalogue.deskForm(row.desk);
  const declared = desk?.desk.foreignReference;
  const values = (row.fields ?? {}) as Record<string, unknown>;
  const properties = (desk?.schema.properties ?? {}) as Record<string, { title?: string; 'x-title-en'?: string }>;
  const fields = (desk?.desk.proofFields ?? [])
    .filter((name) => typeof values[name] === 'string' && String(values[name]).trim() !== '')
    .map((name) => ({
      name,
      title: { fa: properties[name]?.title ?? name, en: properties[name]?.['x-title-en'] ?? name },
      value: String(values[name]).trim(),
    }));
  const code = await receiptCodeOf(deps.db, { purchaseId });
  const title = desk?.desk.title ?? row.desk;
  return {
    purchaseId: row.id,
    state: stateOf(row.state),
    service: { fa: title, en: desk?.desk['x-title-en'] ?? title },
    foreignAmount: row.amountMinor / 100,
    currencyCode: row.currencyCode.trim(),
    currencyTitle: row.currencyTitle,
    paidAbroadAt: new Date(row.createdAt).toISOString(),
    reference: {
      kind: declared?.kind ?? null,
      title: {
        fa: declared?.title ?? 'شماره پیگیری پرداخت ارزی',
        en: declared?.['x-title-en'] ?? 'Payment reference',
      },
      value: row.reference,
    },
    fields,
    payerName: fullNameOf(row) ?? '',
    receiptSha256: row.receiptSha256,
    verificationCode: code,
    verificationUrl: verificationUrlOf(deps.publicUrl, code),
  };
}
