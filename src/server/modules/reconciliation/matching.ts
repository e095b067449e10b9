/**
 * The matching of one Tehran day: the sandbox gateway's settlement statement against the online collections (by the
 * bank's reference) and the ledger's postings of an online collection's type (by details.collectionId). Reads only;
 * each finding has a key stable across runs, so a re-run updates the same row (runs.ts).
 */
import { sql } from 'kysely';
import type { DB } from '../../db/database';
import {
  type SettledPayment,
  settledByReference,
  settlementStatement,
  tehranDayWindow,
} from '../sandbox-bank/statement';

/** The gateway name payments records on collections taken through the sandbox bank (payments/choose-gateway.ts). */
export const SANDBOX_GATEWAY = 'sandbox';
/** Ledger types that post an online collection: collectOnline, and refundToForeignCard when it carries a payment. */
const ONLINE_COLLECTION_TYPES = ['transaction_A', 'transaction_H'];

export type FindingKind =
  | 'matched'
  | 'gatewayWithoutCollection'
  | 'collectionWithoutSettlement'
  | 'amountDiffers'
  | 'settledTwice'
  | 'ledgerWithoutCollection';

export interface Finding {
  key: string;
  kind: FindingKind;
  evidence: Record<string, unknown>;
  collectionId: number | null;
  ledgerTransactionId: number | null;
  purchaseId: number | null;
}

interface CollectionRow {
  id: number;
  userId: number;
  amount: number;
  purchaseId: number | null;
  referenceId: string | null;
  cardNo: string | null;
  createdAt: Date;
}

interface LedgerRow {
  id: number;
  type: string;
  userId: number | null;
  amounts: unknown;
  collectionId: string | null;
  onlineProformaId: string | null;
  purchaseId: number | null;
  createdAt: Date;
}

export interface DayMatch {
  findings: Finding[];
  gateway: { count: number; amount: number };
  collections: { count: number; amount: number };
}

const collectionColumns = ['id', 'userId', 'amount', 'purchaseId', 'referenceId', 'cardNo', 'createdAt'] as const;

const gatewaySide = (s: SettledPayment) => ({
  authority: s.authority,
  referenceId: s.referenceId,
  amount: s.amount,
  cardNo: s.cardNo,
  settledAt: s.settledAt.toISOString(),
});
const collectionSide = (c: CollectionRow) => ({
  id: c.id,
  userId: c.userId,
  amount: Number(c.amount),
  purchaseId: c.purchaseId,
  referenceId: c.referenceId,
  cardNo: c.cardNo,
  createdAt: c.createdAt.toISOString(),
});
const ledgerSide = (t: LedgerRow) => ({
  id: t.id,
  type: t.type,
  userId: t.userId,
  amounts: t.amounts,
  collectionId: t.collectionId === null ? null : Number(t.collectionId),
  purchaseId: t.purchaseId,
  createdAt: t.createdAt.toISOString(),
});

export async function matchDay(db: DB, day: string): Promise<DayMatch> {
  const { from, to } = tehranDayWindow(day);
  const statement = await settlementStatement(db, day);
  const dayCollections = await db
    .selectFrom('collections')
    .select(collectionColumns)
    .where('source', '=', 'online')
    .where('gateway', '=', SANDBOX_GATEWAY)
    .where('createdAt', '>=', from)
    .where('createdAt', '<', to)
    .execute();

  // Every reference the day touches, on either side; its collections and its settlement whatever day they fell on.
  const references = [
    ...new Set([...statement.map((s) => s.referenceId), ...dayCollections.flatMap((c) => c.referenceId ?? [])]),
  ];
  const related =
    references.length === 0
      ? []
      : await db
          .selectFrom('collections')
          .select(collectionColumns)
          .where('gateway', '=', SANDBOX_GATEWAY)
          .where('referenceId', 'in', references)
          .execute();
  const bank = new Map(statement.map((s) => [s.referenceId, s]));
  const elsewhere = references.filter((r) => !bank.has(r));
  for (const s of await settledByReference(db, elsewhere)) bank.set(s.referenceId, s);

  const byReference = new Map<string, CollectionRow[]>();
  for (const c of [...related, ...dayCollections]) {
    const list = byReference.get(c.referenceId ?? '') ?? [];
    if (!list.some((x) => x.id === c.id)) list.push(c);
    byReference.set(c.referenceId ?? '', list);
  }
  const collectionIds = [...new Set([...related, ...dayCollections].map((c) => c.id))];
  const postingsOf = await ledgerOfCollections(db, collectionIds);

  const findings: Finding[] = [];
  for (const reference of references) {
    const settled = bank.get(reference);
    const collections = (byReference.get(reference) ?? []).sort((a, b) => a.id - b.id);
    const ledger = collections.flatMap((c) => postingsOf.get(c.id) ?? []);
    const evidence = {
      gateway: settled ? gatewaySide(settled) : null,
      collections: collections.map(collectionSide),
      ledger: ledger.map(ledgerSide),
    };
    const first = collections[0];
    const links = {
      collectionId: first?.id ?? null,
      ledgerTransactionId: ledger[0]?.id ?? null,
      purchaseId: first?.purchaseId ?? null,
    };
    if (!settled) {
      for (const c of collections) {
        findings.push({
          key: `collectionWithoutSettlement:${c.id}`,
          kind: 'collectionWithoutSettlement',
          evidence: { ...evidence, collections: [collectionSide(c)] },
          collectionId: c.id,
          ledgerTransactionId: postingsOf.get(c.id)?.[0]?.id ?? null,
          purchaseId: c.purchaseId,
        });
      }
      continue;
    }
    const kind: FindingKind =
      collections.length === 0
        ? 'gatewayWithoutCollection'
        : collections.length > 1
          ? 'settledTwice'
          : Number(first!.amount) !== settled.amount
            ? 'amountDiffers'
            : 'matched';
    findings.push({ key: `${kind === 'matched' ? 'matched' : 'gateway'}:${reference}`, kind, evidence, ...links });
  }

  // The ledger's postings of the day of an online collection's type whose collection does not exist.
  const postings = await db
    .selectFrom('ledgerTransactions as t')
    .leftJoin('collections as c', (join) => join.on(sql`c.id::text`, '=', sql`t.details ->> 'collectionId'`))
    .select([
      't.id',
      't.type',
      't.userId',
      't.amounts',
      't.purchaseId',
      't.createdAt',
      sql<string | null>`t.details ->> 'collectionId'`.as('collectionId'),
      sql<string | null>`t.details ->> 'onlineProformaId'`.as('onlineProformaId'),
    ])
    .where('t.type', 'in', ONLINE_COLLECTION_TYPES)
    .where('t.createdAt', '>=', from)
    .where('t.createdAt', '<', to)
    .where('c.id', 'is', null)
    .orderBy('t.id')
    .execute();
  for (const t of postings) {
    // A card-mismatch refund without a gateway payment is not an online collection's posting.
    if (t.type === 'transaction_H' && t.onlineProformaId === null) continue;
    findings.push({
      key: `ledgerWithoutCollection:${t.id}`,
      kind: 'ledgerWithoutCollection',
      evidence: { gateway: null, collections: [], ledger: [ledgerSide(t)] },
      collectionId: null,
      ledgerTransactionId: t.id,
      purchaseId: t.purchaseId,
    });
  }

  return {
    findings,
    gateway: { count: statement.length, amount: statement.reduce((sum, s) => sum + s.amount, 0) },
    collections: {
      count: dayCollections.length,
      amount: dayCollections.reduce((sum, c) => sum + Number(c.amount), 0),
    },
  };
}

async function ledgerOfCollections(db: DB, ids: number[]): Promise<Map<number, LedgerRow[]>> {
  const map = new Map<number, LedgerRow[]>();
  if (ids.length === 0) return map;
  const rows = await db
    .selectFrom('ledgerTransactions')
    .select([
      'id',
      'type',
      'userId',
      'amounts',
      'purchaseId',
      'createdAt',
      sql<string | null>`details ->> 'collectionId'`.as('collectionId'),
      sql<string | null>`details ->> 'onlineProformaId'`.as('onlineProformaId'),
    ])
    .where('type', 'in', ONLINE_COLLECTION_TYPES)
    .where(sql<string>`details ->> 'collectionId'`, 'in', ids.map(String))
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const id = Number(r.collectionId);
    map.set(id, [...(map.get(id) ?? []), r]);
  }
  return map;
}
