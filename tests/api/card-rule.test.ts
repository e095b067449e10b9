/**
 * The card rule with a gateway that reports no card holder (issue 29 part 3, decision 024), on a real server and
 * database (PGlite, or PostgreSQL with TEST_DATABASE_URL), with the sandbox bank in zarinpal mode
 * (SANDBOX_BANK_MODE=zarinpal: no holder in verify, metadata.card_pan honoured at its page) and the sandbox card
 * inquiry. A customer registers cards (Luhn, bank by BIN, sealed at rest), has them verified by the inquiry or by
 * staff, and pays only with a verified card of their own; another person's card is refused at the bank's page, and
 * when a bank lets it through anyway the money never pays the request and goes back to that card. The ledger
 * invariants are checked after every test.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { SANDBOX_FOREIGN_CARDS, SANDBOX_UNANSWERED_CARDS } from '../../src/server/modules/cards/inquiry';
import { resealCards } from '../../src/server/modules/cards/reseal';
import { FieldCipher, keyFromDataDir } from '../../src/server/lib/field-cipher';
import { CARD_MESSAGES, luhnValid, maskCardNumber } from '../../src/shared/cards/card-number';
import { toPersianDigits } from '../../src/shared/digits';
import { type Customer, type MoneyHelpers, withMoneyServer } from '../support/money';
import { bearer, post, type RunningServer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;

withMoneyServer(
  {
    web: false,
    env: { SANDBOX_BANK_MODE: 'zarinpal', CARD_INQUIRY_DRIVER: 'sandbox' },
  },
  (t) => {
    ({ server, db, money } = t);
  },
);

/** A Bank Melli card, Luhn-valid, and the same as people type it (Persian and Arabic digits, dashes, spaces). */
const MY_CARD = '6037991234567893';
const MY_CARD_AS_TYPED = '۶۰۳۷-۹۹۱۲ ۳۴۵۶ ٧٨٩٣';
const FOREIGN_CARD = SANDBOX_FOREIGN_CARDS[0]!;

let cards = 0;
/** A new Luhn-valid card of the bank with this BIN, distinct per call (a card is verified for one customer only). */
function newCard(bin = '603799'): string {
  const body = bin + String(process.pid % 1000).padStart(3, '0') + String(cards++).padStart(6, '0');
  for (let check = 0; check < 10; check++) if (luhnValid(body + check)) return body + check;
  throw new Error('no check digit');
}
const hashOf = (card: string) => createHash('sha256').update(card).digest('hex').toUpperCase();

interface UserCard {
  id: number;
  maskedPan: string;
  bankName: string;
  state: 'pending' | 'verified' | 'rejected';
  verifiedBy: string | null;
  decisionReason: string | null;
}

async function saveCard(who: Customer, cardNumber: string) {
  return post(server, '/api/me/saveUserCard', { cardNumber }, bearer(who.token));
}

async function verifiedCard(who: Customer, cardNumber: string): Promise<UserCard> {
  const saved = await saveCard(who, cardNumber);
  expect(saved.status, saved.body.msg).toBe(200);
  const card = saved.body.data as UserCard;
  expect(card.state).toBe('verified');
  return card;
}

/** The bank's page for an opened payment, and its form posted as a browser does. */
async function bankPage(gatewayUrl: string): Promise<{ url: URL; html: string }> {
  const url = new URL(gatewayUrl, server.url);
  const page = await fetch(url);
  expect(page.status).toBe(200);
  return { url, html: await page.text() };
}

async function submitAtBank(url: URL, cardNo: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ cardNo, action: 'pay' }).toString(),
  });
}

/** Follows the bank's redirect to our callback; returns where we send the browser (the request's page). */
async function callback(location: string): Promise<URL> {
  const res = await fetch(new URL(location, server.url), { redirect: 'manual' });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!, server.url);
}

describe('registering cards', () => {
  it('takes Persian digits and dashes, names the bank, verifies by the inquiry and keeps the number sealed', async () => {
    const who = await money.customer();
    const saved = await saveCard(who, MY_CARD_AS_TYPED);
    expect(saved.status, saved.body.msg).toBe(200);
    expect(saved.body.msg).toBe('کارت ثبت و به نام شما تایید شد.');
    expect(saved.body.data).toMatchObject({
      maskedPan: '603799******7893',
      bin: '603799',
      bankName: 'بانک ملی ایران',
      state: 'verified',
      verifiedBy: 'inquiry',
      decisionReason: null,
    });
    // Saved again: answered as it stands.
    const again = await saveCard(who, MY_CARD);
    expect(again.body.msg).toBe('این کارت پیشتر ثبت و به نام شما تایید شده است.');
    expect((again.body.data as UserCard).id).toBe((saved.body.data as UserCard).id);

    const list = await post(server, '/api/me/searchUserCards', undefined, bearer(who.token));
    expect(list.body.data).toMatchObject({
      total: 1,
      items: [{ maskedPan: '603799******7893' }],
      gatewayNeedsCard: true,
      instantVerification: true,
    });
    expect(JSON.stringify(list.body)).not.toContain(MY_CARD);

    const row = await db.selectFrom('userCards').selectAll().where('userId', '=', who.userId).executeTakeFirstOrThrow();
    expect(row.cardSealed.startsWith('enc:v1:')).toBe(true);
    expect(row.cardSealed).not.toContain(MY_CARD);
    // No unkeyed hash of the number (issue 43): with the first six and last four in clear, a plain SHA-256 gives the
    // number away in seconds. The keyed hash is tagged with the field key's id.
    expect(row.cardHash).not.toBe(hashOf(MY_CARD));
    expect(JSON.stringify(row)).not.toContain(hashOf(MY_CARD));
    expect(JSON.stringify(row).toLowerCase()).not.toContain(hashOf(MY_CARD).toLowerCase());
    const serverCipher = new FieldCipher(keyFromDataDir(server.dataDir).key);
    expect(row.cardHash).toBe(serverCipher.cardHash(MY_CARD));
    expect(row.cardHash).toMatch(/^k:[A-Za-z0-9_-]{10}:[0-9A-F]{64}$/);
  });

  it('re-hashes at start a card stored with the plain SHA-256 of an earlier version', async () => {
    const who = await money.customer();
    const number = newCard('603799');
    await verifiedCard(who, number);
    // As version 022 stored it.
    await db
      .updateTable('userCards')
      .set({ cardHash: hashOf(number) })
      .where('userId', '=', who.userId)
      .execute();
    const serverCipher = new FieldCipher(keyFromDataDir(server.dataDir).key);
    await resealCards(db, serverCipher, server.app.fastify.log);
    const row = await db
      .selectFrom('userCards')
      .select(['cardHash', 'cardSealed'])
      .where('userId', '=', who.userId)
      .executeTakeFirstOrThrow();
    expect(row.cardHash).toBe(serverCipher.cardHash(number));
    expect(serverCipher.open(row.cardSealed, `user-card:${who.userId}`)).toBe(number);
  });

  it('refuses a bad checksum, a wrong length and an unknown bank with Persian messages (422)', async () => {
    const who = await money.customer();
    for (const [typed, message] of [
      ['6037991234567890', CARD_MESSAGES.checksum],
      ['603799123456', CARD_MESSAGES.length],
      ['1234567812345670', CARD_MESSAGES.unknownBank],
      ['6037abcd12345678', CARD_MESSAGES.digits],
    ] as const) {
      const res = await saveCard(who, typed);
      expect(res.status, typed).toBe(422);
      expect(res.body.msg).toBe(message);
    }
    expect((await saveCard(who, '')).status).toBe(400);
    expect(await db.selectFrom('userCards').select('id').where('userId', '=', who.userId).execute()).toEqual([]);
  });

  it("the inquiry rejects another person's card with a reason; a card verified as someone's is refused to others", async () => {
    const who = await money.customer();
    const foreign = await saveCard(who, FOREIGN_CARD);
    expect(foreign.status).toBe(200);
    expect(foreign.body.data).toMatchObject({ state: 'rejected', decisionReason: expect.stringContaining('استعلام') });

    const owner = await money.customer();
    const ownersCard = newCard('627412');
    await verifiedCard(owner, ownersCard);
    const taken = await saveCard(who, ownersCard);
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe('این کارت به نام کاربر دیگری تایید شده است و نمی‌توان آن را ثبت کرد.');
  });

  it('without an answer from the inquiry the card waits for staff, who verify it through the task', async () => {
    const who = await money.customer();
    const saved = await saveCard(who, SANDBOX_UNANSWERED_CARDS[0]!);
    expect(saved.status).toBe(200);
    const card = saved.body.data as UserCard;
    expect(card).toMatchObject({ state: 'pending', bankName: 'بانک پاسارگاد' });
    expect(saved.body.msg).toBe('کارت ثبت شد و پس از بررسی مالکیت آن، برای پرداخت قابل استفاده است.');

    // A pending card pays nothing.
    const purchase = await money.request(who);
    const refused = await money.pay(who, purchase.id, undefined, { card: card.id });
    expect(refused.status).toBe(422);
    expect(refused.body.msg).toBe('این کارت هنوز به نام شما تایید نشده است؛ پس از تایید می‌توانید با آن پرداخت کنید.');

    const task = await db
      .selectFrom('tasks')
      .select(['id', 'type', 'state'])
      .where('userCardId', '=', card.id)
      .executeTakeFirstOrThrow();
    expect(task).toMatchObject({ type: 'approveUserCardTask', state: 'open' });
    const reviewer = await money.staffWithActions(['approveBankAccountOwnership', 'viewTasks']);
    const cashier = await money.staffWithActions(['manageWithdrawals']);
    expect(
      (await post(server, '/api/sys/fetchApproveUserCardTaskData', { taskId: task.id }, bearer(cashier.token))).status,
    ).toBe(403);
    const opened = await post(
      server,
      '/api/sys/fetchApproveUserCardTaskData',
      { taskId: task.id },
      bearer(reviewer.token),
    );
    expect(opened.status, opened.body.msg).toBe(200);
    expect(opened.body.data).toMatchObject({
      task: { id: task.id, state: 'claimed' },
      card: { id: card.id, state: 'pending' },
      cardNumber: SANDBOX_UNANSWERED_CARDS[0],
      user: { id: who.userId },
    });
    const approved = await post(
      server,
      '/api/sys/approveUserCardOwnership',
      { taskId: task.id },
      bearer(reviewer.token),
    );
    expect(approved.status, approved.body.msg).toBe(200);
    expect(approved.body.data).toMatchObject({ state: 'verified', verifiedBy: 'staff' });
    expect(
      (await post(server, '/api/sys/approveUserCardOwnership', { taskId: task.id }, bearer(reviewer.token))).status,
    ).toBe(409);
  });
});

describe('paying with a named card (SANDBOX_BANK_MODE=zarinpal)', () => {
  it('a verified card of their own pays the request; the bank page takes only that card', async () => {
    const who = await money.customer();
    const number = newCard();
    const card = await verifiedCard(who, toPersianDigits(number));
    const purchase = await money.request(who);

    // The gateway reports no holder, so a gateway payment must name a card.
    const unnamed = await money.pay(who, purchase.id);
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.msg).toBe('برای پرداخت آنلاین، یکی از کارت‌های تاییدشدهٔ خود را انتخاب کنید.');

    const paying = await money.pay(who, purchase.id, undefined, { card: card.id });
    expect(paying.status, paying.body.msg).toBe(200);
    const { gatewayUrl } = paying.body.data as { gatewayUrl: string };
    const { url, html } = await bankPage(gatewayUrl);
    // ZarinPal's page: the card only, no holder's national code; the named card shown masked.
    expect(html).not.toContain('name="holderNationalCode"');
    expect(html).toContain('id="required-card"');

    const other = await submitAtBank(url, FOREIGN_CARD);
    expect(other.status).toBe(422);
    expect(await other.text()).toContain('پذیرنده فقط پرداخت با کارت');

    const paid = await submitAtBank(url, toPersianDigits(number.replace(/(\d{4})(?=\d)/g, '$1 ')));
    expect(paid.status).toBe(303);
    const back = await callback(paid.headers.get('location')!);
    expect(back.searchParams.get('payment')).toBe('success');
    const detail = await money.purchaseOf(who, purchase.id);
    expect(detail.purchase.state).toBe('paid');
    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: purchase.expectedPrice });

    const proforma = await db
      .selectFrom('onlineProformas')
      .select(['userCardId', 'verified', 'state'])
      .where('purchaseId', '=', purchase.id)
      .executeTakeFirstOrThrow();
    expect(proforma).toMatchObject({ userCardId: card.id, state: 'settled' });
    expect(proforma.verified).toMatchObject({
      cardNo: maskCardNumber(number),
      cardHash: hashOf(number),
      holderNationalCode: null,
      namedCard: maskCardNumber(number),
    });
  });

  it("another customer's card id is 404, an unverified one 422; nothing opens at the bank", async () => {
    const who = await money.customer();
    const other = await money.customer();
    const othersCard = await verifiedCard(other, newCard('589210'));
    const rejected = (await saveCard(who, FOREIGN_CARD)).body.data as UserCard;
    expect(rejected.state).toBe('rejected');
    const purchase = await money.request(who);

    const notMine = await money.pay(who, purchase.id, undefined, { card: othersCard.id });
    expect(notMine.status).toBe(404);
    expect(notMine.body.msg).toBe('کارت یافت نشد.');
    const notVerified = await money.pay(who, purchase.id, undefined, { card: rejected.id });
    expect(notVerified.status).toBe(422);
    const bad = await money.pay(who, purchase.id, undefined, { card: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('کارت انتخاب‌شده معتبر نیست.');
    expect(await db.selectFrom('onlineProformas').select('id').where('purchaseId', '=', purchase.id).execute()).toEqual(
      [],
    );
    expect((await money.purchaseOf(who, purchase.id)).purchase.state).toBe('waitingForPayment');
  });

  it('a bank that lets another card through: the request stays unpaid and the money goes back to that card', async () => {
    const who = await money.customer();
    const card = await verifiedCard(who, newCard());
    const purchase = await money.request(who);
    const paying = await money.pay(who, purchase.id, undefined, { card: card.id });
    const { gatewayUrl } = paying.body.data as { gatewayUrl: string };
    const authority = new URL(gatewayUrl, server.url).pathname.split('/').pop()!;

    // The bank's own book says another card paid (a bank that did not honour card_pan): verify reports that card.
    await db
      .updateTable('sandboxBankPayments')
      .set({
        state: 'paid',
        cardNo: '621986******9007',
        cardHash: hashOf(FOREIGN_CARD),
        referenceId: String(1_000_000_000 + Math.floor(Math.random() * 8_999_999_999)),
        paidAt: new Date(),
      })
      .where('authority', '=', authority)
      .execute();
    const callbackUrl = (
      await db
        .selectFrom('sandboxBankPayments')
        .select('callbackUrl')
        .where('authority', '=', authority)
        .executeTakeFirstOrThrow()
    ).callbackUrl;
    const back = await callback(`${callbackUrl}?Authority=${authority}&Status=OK`);
    expect(back.searchParams.get('payment')).toBe('cardMismatch');

    expect(await money.balanceOf(who)).toEqual({ balance: 0, reserved: 0 });
    const detail = await money.purchaseOf(who, purchase.id);
    expect(detail.purchase.state).toBe('waitingForPayment');
    expect(detail.payments[0]!.state).toBe('cardMismatch');
    const [refund] = await money.transactions(who);
    expect(refund).toMatchObject({
      type: 'transaction_H',
      walletAccountEffect: 0,
      reservedAccountEffect: 0,
      refundedAmount: purchase.expectedPrice,
      refundedToUnsafe: true,
      cause: 'cardMismatch',
      purchaseId: purchase.id,
    });
    const receipt = await post(
      server,
      '/api/me/fetchCollection',
      { collection: detail.payments[0]!.collectionId },
      bearer(who.token),
    );
    // Back to the card that paid, not the one named.
    expect(receipt.body.data).toMatchObject({
      refundedToCard: true,
      cause: 'cardMismatch',
      cardNo: '621986******9007',
    });

    // A replayed callback moves nothing more.
    expect((await callback(`${callbackUrl}?Authority=${authority}&Status=OK`)).searchParams.get('payment')).toBe(
      'cardMismatch',
    );
    expect(await money.transactions(who)).toHaveLength(1);
  });
});

describe('sealed card numbers and a key rotation', () => {
  it('re-seals every card under the new key, which opens them; the old key is then not needed', async () => {
    const who = await money.customer();
    const number = newCard('639346');
    await verifiedCard(who, number);
    const oldKey = keyFromDataDir(server.dataDir).key;
    const newKey = randomBytes(32);
    const rotated = new FieldCipher(newKey, [oldKey]);
    const log = server.app.fastify.log;
    const first = await resealCards(db, rotated, log);
    expect(first.resealed).toBeGreaterThan(0);
    expect(first.unreadable).toBe(0);
    // Done once: a second start has nothing to do.
    expect(await resealCards(db, rotated, log)).toEqual({ resealed: 0, unreadable: 0 });
    const row = await db
      .selectFrom('userCards')
      .select('cardSealed')
      .where('userId', '=', who.userId)
      .executeTakeFirstOrThrow();
    expect(rotated.isCurrent(row.cardSealed)).toBe(true);
    // Its keyed hash follows the new key too.
    const hashed = await db
      .selectFrom('userCards')
      .select('cardHash')
      .where('userId', '=', who.userId)
      .executeTakeFirstOrThrow();
    expect(hashed.cardHash).toBe(rotated.cardHash(number));
    // The new key alone opens it.
    expect(new FieldCipher(newKey).open(row.cardSealed, `user-card:${who.userId}`)).toBe(number);
    // Back under the server's own key, so this server still opens them.
    expect((await resealCards(db, new FieldCipher(oldKey, [newKey]), log)).unreadable).toBe(0);
  });
});
