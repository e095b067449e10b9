/**
 * The matching of one Tehran day. Gateways: each gateway's settlement statement (the sandbox bank's own, joined by
 * the lines staff uploaded from a PSP's statement file, an uploaded line replacing the bank's of the same reference)
 * against the online collections of that gateway (by the bank's reference) and the ledger's postings of an online
 * collection's type (by details.collectionId). Our bank accounts: the lines of their uploaded statements against the
 * offline deposits (by tracking code, money in) and the withdrawals marked done (by the bank reference staff
 * recorded, money out). A collection both sides agree on is matched only when the ledger agrees too: one posting of
 * its amount (ledgerKind). Reads only; each finding has a key stable across runs, so a re-run updates the same row
 * (runs.ts).
 */
import { sql } from 'kysely';
import type { DB } from '../../db/database';
import { canonicalTrackingCode } from '../../../shared/tracking-code';
import { ledgerKey, Tx } from '../ledger';
import { tehranDayWindow } from '../../../shared/calendar/tehran-day';
import { isPayoutReference, settledByReference, settlementStatement } from '../sandbox-bank';
import { type StoredLine, storedLines } from './statements';
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
  | 'ledgerWithoutCollection'
  | 'depositWithoutBankLine'
  | 'withdrawalWithoutBankLine'
  | 'bankLineWithoutRecord'
  | 'collectionWithoutPosting'
  | 'postingDiffers'
  | 'payoutDiffers'
  | 'payoutMissing';

export interface Finding {
  key: string;
  kind: FindingKind;
  evidence: Record<string, unknown>;
  collectionId: number | null;
  withdrawalId: number | null;
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
  /** What the posting moved: the sum of its positive entries (one leg of the collection's amount). */
  moved?: number;
}

export interface DayMatch {
  findings: Finding[];
  gateway: { count: number; amount: number };
  collections: { count: number; amount: number };
  bank: { count: number; inAmount: number; outAmount: number };
}

/** One line of a gateway's statement: the sandbox bank's own (with its authority) or an uploaded file's. */
interface GatewayLine {
  statement: string;
  authority: string | null;
  referenceId: string;
  amount: number;
  cardNo: string | null;
  settledAt: Date;
  fileName?: string;
  lineNo?: number;
}

const collectionColumns = ['id', 'userId', 'amount', 'purchaseId', 'referenceId', 'cardNo', 'createdAt'] as const;

const gatewaySide = (s: GatewayLine) => ({
  statement: s.statement,
  fileName: s.fileName ?? null,
  lineNo: s.lineNo ?? null,
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

async function ledgerOfCollections(db: DB, ids: number[], types: string[]): Promise<Map<number, LedgerRow[]>> {
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
    .select((eb) =>
      eb
        .selectFrom('ledgerEntries as e')
        .whereRef('e.transactionId', '=', 'ledgerTransactions.id')
        .where('e.amount', '>', 0)
        .select(sql<number>`coalesce(sum(e.amount), 0)::bigint`.as('moved'))
        .as('moved'),
    )
    .where('type', 'in', types)
    .where(sql<string>`details ->> 'collectionId'`, 'in', ids.map(String))
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const id = Number(r.collectionId);
    map.set(id, [...(map.get(id) ?? []), { ...r, moved: Number(r.moved) }]);
  }
  return map;
}

/**
 * The ledger's side of a collection the statement agrees with (docs/money.md, «Reconciliation»): exactly one posting moving the collection's
 * amount is a match; none, or another amount, or more than one is named, since a customer's money received and never
 * credited, or credited with another amount, must not pass reconciliation.
 */
function ledgerKind(collection: CollectionRow, postings: LedgerRow[]): FindingKind {
  if (postings.length === 0) return 'collectionWithoutPosting';
  if (postings.length > 1 || postings[0]!.moved !== Number(collection.amount)) return 'postingDiffers';
  return 'matched';
}

const uploadedGatewayLine = (l: StoredLine): GatewayLine => ({
  statement: l.statement,
  authority: null,
  referenceId: l.reference,
  amount: l.amount,
  cardNo: l.cardNo,
  settledAt: l.settledAt,
  fileName: l.fileName,
  lineNo: l.lineNo,
});

const bankSide = (l: StoredLine) => ({
  id: l.id,
  statement: l.statement,
  fileName: l.fileName,
  lineNo: l.lineNo,
  reference: l.reference,
  direction: l.direction,
  amount: l.amount,
  settledAt: l.settledAt.toISOString(),
  description: l.description,
});

export async function matchDay(db: DB, day: string): Promise<DayMatch> {
  const uploaded = await storedLines(db, 'gateway', { day });
  const gateways = [...new Set([SANDBOX_GATEWAY, ...uploaded.map((l) => l.gateway!)])];
  const findings: Finding[] = [];
  const gateway = { count: 0, amount: 0 };
  const collections = { count: 0, amount: 0 };
  for (const name of gateways) {
    const part = await matchGateway(db, day, name, uploaded);
    findings.push(...part.findings);
    gateway.count += part.gateway.count;
    gateway.amount += part.gateway.amount;
    collections.count += part.collections.count;
    collections.amount += part.collections.amount;
  }
  findings.push(...(await ledgerWithoutCollection(db, day)));
  const bank = await matchBank(db, day);
  findings.push(...bank.findings);
  return { findings, gateway, collections, bank: bank.totals };
}

/** One gateway's statement of the day against its collections; the sandbox's keys are as before uploads existed. */
async function matchGateway(db: DB, day: string, gateway: string, uploadedOfDay: StoredLine[]) {
  const { from, to } = tehranDayWindow(day);
  const sandbox = gateway === SANDBOX_GATEWAY;
  const own: GatewayLine[] = sandbox
    ? (await settlementStatement(db, day)).map((s) => ({ statement: 'sandboxBank', ...s }))
    : [];
  const byRef = new Map(own.map((s) => [s.referenceId, s]));
  for (const l of uploadedOfDay) if (l.gateway === gateway) byRef.set(l.reference, uploadedGatewayLine(l));
  const statement = [...byRef.values()];
  const dayCollections = await db
    .selectFrom('collections')
    .select(collectionColumns)
    .where('source', '=', 'online')
    .where('gateway', '=', gateway)
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
          .where('gateway', '=', gateway)
          .where('referenceId', 'in', references)
          .execute();
  const bank = new Map(statement.map((s) => [s.referenceId, s]));
  const elsewhere = references.filter((r) => !bank.has(r));
  if (sandbox) {
    for (const s of await settledByReference(db, elsewhere))
      bank.set(s.referenceId, { statement: 'sandboxBank', ...s });
  }
  const uploadedElsewhere = await storedLines(db, 'gateway', { references: elsewhere.map(canonicalTrackingCode) });
  for (const l of uploadedElsewhere) if (l.gateway === gateway) bank.set(l.reference, uploadedGatewayLine(l));

  const byReference = new Map<string, CollectionRow[]>();
  for (const c of [...related, ...dayCollections]) {
    const list = byReference.get(c.referenceId ?? '') ?? [];
    if (!list.some((x) => x.id === c.id)) list.push(c);
    byReference.set(c.referenceId ?? '', list);
  }
  const collectionIds = [...new Set([...related, ...dayCollections].map((c) => c.id))];
  const postingsOf = await ledgerOfCollections(db, collectionIds, ONLINE_COLLECTION_TYPES);
  const keyOf = (reference: string) => (sandbox ? reference : `${gateway}:${reference}`);

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
      withdrawalId: null,
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
          withdrawalId: null,
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
            : ledgerKind(first!, ledger);
    findings.push({
      key: `${kind === 'matched' ? 'matched' : 'gateway'}:${keyOf(reference)}`,
      kind,
      evidence,
      ...links,
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

/** The ledger's postings of the day of an online collection's type whose collection does not exist. */
async function ledgerWithoutCollection(db: DB, day: string): Promise<Finding[]> {
  const { from, to } = tehranDayWindow(day);
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
  return postings
    .filter((t) => !(t.type === 'transaction_H' && t.onlineProformaId === null)) // a card-mismatch refund of a deposit
    .map((t) => ({
      key: `ledgerWithoutCollection:${t.id}`,
      kind: 'ledgerWithoutCollection' as const,
      evidence: { gateway: null, collections: [], ledger: [ledgerSide(t)] },
      collectionId: null,
      withdrawalId: null,
      ledgerTransactionId: t.id,
      purchaseId: t.purchaseId,
    }));
}

/** How far from the day a withdrawal's bank line is looked for (a transfer lands within days of being recorded). */
const WITHDRAWAL_LOOKAROUND_MS = 10 * 24 * 3600_000;

interface WithdrawalRow {
  id: number;
  userId: number;
  amount: number;
  bankReference: string | null;
  decidedAt: Date | null;
  traceCode: string;
}
const withdrawalSide = (w: WithdrawalRow) => ({
  id: w.id,
  userId: w.userId,
  amount: Number(w.amount),
  bankReference: w.bankReference,
  decidedAt: w.decidedAt?.toISOString() ?? null,
});

/**
 * Our bank accounts' statement lines of the day against the offline deposits recorded that day (money in, by
 * tracking code) and the withdrawals marked done that day (money out, by the bank reference recorded), each side
 * looked up on the other whatever day it fell on.
 */
async function matchBank(db: DB, day: string) {
  const { from, to } = tehranDayWindow(day);
  const lines = await storedLines(db, 'bank', { day });
  const totals = {
    count: lines.length,
    inAmount: lines.filter((l) => l.direction === 'in').reduce((sum, l) => sum + l.amount, 0),
    outAmount: lines.filter((l) => l.direction === 'out').reduce((sum, l) => sum + l.amount, 0),
  };
  const findings: Finding[] = [];

  // Money in: offline deposits.
  const depositColumns = [...collectionColumns, 'trackingCodeCanonical'] as const;
  const dayDeposits = await db
    .selectFrom('collections')
    .select(depositColumns)
    .where('source', '=', 'offline')
    .where('createdAt', '>=', from)
    .where('createdAt', '<', to)
    .execute();
  // A gateway's payout is not a deposit: payouts.ts matches it (the sandbox's by its reference's form, a reported
  // payout by its line in an uploaded payout report).
  const moneyIn = lines.filter((l) => l.direction === 'in' && !isPayoutReference(l.referenceCanonical));
  const reported = new Set(
    (await storedLines(db, 'payout', { references: moneyIn.map((l) => l.referenceCanonical) })).map(
      (p) => p.referenceCanonical,
    ),
  );
  const inCodes = [
    ...new Set([
      ...moneyIn.filter((l) => !reported.has(l.referenceCanonical)).map((l) => l.referenceCanonical),
      ...dayDeposits.flatMap((d) => d.trackingCodeCanonical ?? []),
    ]),
  ];
  const deposits =
    inCodes.length === 0
      ? []
      : await db
          .selectFrom('collections')
          .select(depositColumns)
          .where('source', '=', 'offline')
          .where('trackingCodeCanonical', 'in', inCodes)
          .orderBy('id')
          .execute();
  const inLines = new Map(
    (await storedLines(db, 'bank', { references: inCodes })).map((l) => [l.referenceCanonical, l]),
  );
  const postingsOf = await ledgerOfCollections(
    db,
    deposits.map((d) => d.id),
    [Tx.collectOffline, ...ONLINE_COLLECTION_TYPES],
  );
  for (const code of inCodes) {
    const line = inLines.get(code);
    const found = deposits.filter((d) => d.trackingCodeCanonical === code);
    const ledger = found.flatMap((d) => postingsOf.get(d.id) ?? []);
    const evidence = {
      gateway: null,
      bank: line ? bankSide(line) : null,
      collections: found.map(collectionSide),
      withdrawals: [],
      ledger: ledger.map(ledgerSide),
    };
    const links = {
      collectionId: found[0]?.id ?? null,
      withdrawalId: null,
      ledgerTransactionId: ledger[0]?.id ?? null,
      purchaseId: found[0]?.purchaseId ?? null,
    };
    if (line && line.direction === 'out') {
      // The code names money out: not this deposit's line.
      for (const d of found) findings.push(depositWithout(d, { ...evidence, bank: null }, postingsOf));
      continue;
    }
    if (!line) {
      for (const d of found) findings.push(depositWithout(d, evidence, postingsOf));
      continue;
    }
    const kind: FindingKind =
      found.length === 0
        ? 'bankLineWithoutRecord'
        : found.length > 1
          ? 'settledTwice'
          : Number(found[0]!.amount) !== line.amount
            ? 'amountDiffers'
            : ledgerKind(found[0]!, ledger);
    findings.push({
      key: kind === 'matched' ? `matched:bank:${line.id}` : `bankLine:${line.id}`,
      kind,
      evidence,
      ...links,
    });
  }

  // Money out: withdrawals marked done.
  const withdrawalColumns = ['id', 'userId', 'amount', 'bankReference', 'decidedAt', 'traceCode'] as const;
  const done = await db
    .selectFrom('withdrawals')
    .select(withdrawalColumns)
    .where('state', '=', 'done')
    .where('decidedAt', '>=', new Date(from.getTime() - WITHDRAWAL_LOOKAROUND_MS))
    .where('decidedAt', '<', new Date(to.getTime() + WITHDRAWAL_LOOKAROUND_MS))
    .orderBy('id')
    .execute();
  const referenceOf = (w: WithdrawalRow) => canonicalTrackingCode(w.bankReference ?? '');
  const dayDone = done.filter((w) => w.decidedAt! >= from && w.decidedAt! < to);
  const outCodes = [
    ...new Set([
      ...lines.filter((l) => l.direction === 'out').map((l) => l.referenceCanonical),
      ...dayDone.map(referenceOf),
    ]),
  ];
  const outLines = new Map(
    (await storedLines(db, 'bank', { references: outCodes })).map((l) => [l.referenceCanonical, l]),
  );
  const withdrawalLedger = await ledgerOfWithdrawals(
    db,
    done.map((w) => w.id),
  );
  for (const code of outCodes) {
    const line = outLines.get(code);
    const found = done.filter((w) => referenceOf(w) === code);
    const ledger = found.flatMap((w) => withdrawalLedger.get(w.id) ?? []);
    const evidence = {
      gateway: null,
      bank: line ? bankSide(line) : null,
      collections: [],
      withdrawals: found.map(withdrawalSide),
      ledger: ledger.map(ledgerSide),
    };
    if (!line || line.direction === 'in') {
      // A matching 'in' line is the deposits' business (found above when its deposit is missing).
      for (const w of found) {
        findings.push({
          key: `withdrawalWithoutBankLine:${w.id}`,
          kind: 'withdrawalWithoutBankLine',
          evidence: { ...evidence, bank: null, withdrawals: [withdrawalSide(w)] },
          collectionId: null,
          withdrawalId: w.id,
          ledgerTransactionId: withdrawalLedger.get(w.id)?.[0]?.id ?? null,
          purchaseId: null,
        });
      }
      continue;
    }
    const kind: FindingKind =
      found.length === 0
        ? 'bankLineWithoutRecord'
        : found.length > 1
          ? 'settledTwice'
          : Number(found[0]!.amount) !== line.amount
            ? 'amountDiffers'
            : 'matched';
    findings.push({
      key: kind === 'matched' ? `matched:bank:${line.id}` : `bankLine:${line.id}`,
      kind,
      evidence,
      collectionId: null,
      withdrawalId: found[0]?.id ?? null,
      ledgerTransactionId: ledger[0]?.id ?? null,
      purchaseId: null,
    });
  }
  return { findings, totals };
}

function depositWithout(
  d: CollectionRow,
  evidence: Record<string, unknown>,
  postingsOf: Map<number, LedgerRow[]>,
): Finding {
  return {
    key: `depositWithoutBankLine:${d.id}`,
    kind: 'depositWithoutBankLine',
    evidence: { ...evidence, collections: [collectionSide(d)] },
    collectionId: d.id,
    withdrawalId: null,
    ledgerTransactionId: postingsOf.get(d.id)?.[0]?.id ?? null,
    purchaseId: d.purchaseId,
  };
}

/** The ledger transaction that took each withdrawal's money out of the wallet (keyed withdrawal:<id>). */
async function ledgerOfWithdrawals(db: DB, ids: number[]): Promise<Map<number, LedgerRow[]>> {
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
      'idempotencyKey',
      sql<string | null>`details ->> 'collectionId'`.as('collectionId'),
      sql<string | null>`details ->> 'onlineProformaId'`.as('onlineProformaId'),
    ])
    .where('type', '=', Tx.withdrawToBank)
    .where(
      'idempotencyKey',
      'in',
      ids.map((id) => ledgerKey.withdrawal(id)),
    )
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const id = Number(r.idempotencyKey!.slice('withdrawal:'.length));
    map.set(id, [...(map.get(id) ?? []), r]);
  }
  return map;
}
