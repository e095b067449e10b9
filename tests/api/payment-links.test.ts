/**
 * Paying for someone else through a payment link (issue 34 part 2, decision 028), on a real server and database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL), the ledger invariants checked after every test: the payer pays from
 * their own wallet or through the sandbox bank with their own card; the request's reservation and its refunds are
 * the payer's; revoked, expired and used links move nothing; the payer never receives the request's form fields.
 */
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/database';
import { type Customer, type MoneyHelpers, nationalCodeFor, withMoneyServer } from '../support/money';
import { formatRial } from '../../src/shared/format';
import { bearer, loginByCode, post, type RunningServer, verifiedCustomer } from '../support/server';

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let staff: { token: string; userId: number };

withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  staff = await money.staffWithActions(['manageCurrencyPayments', 'viewTasks']);
});

interface LinkView {
  state: string;
  message: string | null;
  deskTitle: string;
  expectedPrice: number;
  grossPrice: number;
  totalCosts: number;
  requesterName: string;
  quoteId: string | null;
  ownLink: boolean;
}

async function createLink(who: Customer, purchase: number, hours?: number) {
  const res = await post(
    server,
    '/api/me/createPaymentLink',
    { purchase, ...(hours === undefined ? {} : { hours }) },
    bearer(who.token),
  );
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as { token: string; path: string; expiresAt: string };
}

const fetchLink = (who: Customer, token: string) =>
  post(server, '/api/me/fetchPaymentLink', { token }, bearer(who.token));

const payLink = (who: Customer, token: string, key = money.newKey(), extra: Record<string, unknown> = {}) =>
  post(server, '/api/me/payPaymentLink', { token, ...extra }, { ...bearer(who.token), 'idempotency-key': key });

/** A requester with a request waiting for payment, and a verified payer with nothing in their wallet yet. */
async function requesterAndPayer() {
  const requester = await money.customer();
  const payer = await money.customer();
  const purchase = await money.request(requester);
  const link = await createLink(requester, purchase.id);
  return { requester, payer, purchase, link };
}

async function purchaseState(id: number) {
  return db.selectFrom('purchases').select(['state', 'payerUserId']).where('id', '=', id).executeTakeFirstOrThrow();
}

const failed = (purchase: number) =>
  post(server, '/api/sys/uafCprFailed', { purchase, reason: 'حساب آزمون بسته است' }, bearer(staff.token));

/** Nothing the payer was sent about the request — notification text, its parameters, SMS — carries `reason`. */
async function expectPayerNotToldReason(payer: Customer, kind: string, reason: string) {
  const notes = await db
    .selectFrom('notifications')
    .select(['id', 'kind', 'text', 'params'])
    .where('userId', '=', payer.userId)
    .execute();
  // The payer's notes carry no purchaseId (they cannot open the request): a fresh payer's are all about this one.
  expect(notes.map((n) => n.kind)).toContain(kind);
  expect(JSON.stringify(notes)).not.toContain(reason);
  const sms = await db
    .selectFrom('notificationSms')
    .select('text')
    .where(
      'notificationId',
      'in',
      notes.map((n) => n.id),
    )
    .execute();
  expect(sms.length).toBeGreaterThan(0);
  expect(JSON.stringify(sms)).not.toContain(reason);
}

describe('creating and reading a link', () => {
  it('gives a long random token once, stores only its hash, and shows the payer the price and a masked name only', async () => {
    const { requester, payer, purchase, link } = await requesterAndPayer();
    expect(link.path).toBe(`/pay/${link.token}`);
    // Three days unless the requester chose otherwise: long enough for a parent who reads messages in the evening.
    const lifetime = Date.parse(link.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(71.9 * 3_600_000);
    expect(lifetime).toBeLessThanOrEqual(72 * 3_600_000);
    expect(Buffer.from(link.token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await db.selectFrom('paymentLinks').selectAll().where('purchaseId', '=', purchase.id).execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(link.token);

    const seen = await fetchLink(payer, link.token);
    expect(seen.status, seen.body.msg).toBe(200);
    expect(seen.body.data).toMatchObject({
      state: 'open',
      message: null,
      grossPrice: purchase.grossPrice,
      totalCosts: purchase.totalCosts,
      expectedPrice: purchase.expectedPrice,
      requesterName: 'سارا ک.',
      walletBalance: 0,
      quoteId: null,
      ownLink: false,
    });
    // Before log-in (issue 44 point 4): who and how much, the same first name and initial, nothing else of theirs.
    const preview = await post(server, '/api/public/previewPaymentLink', { token: link.token });
    expect(preview.status, preview.body.msg).toBe(200);
    expect(preview.body.data).toEqual({
      state: 'open',
      message: null,
      deskTitle: (seen.body.data as { deskTitle: string }).deskTitle,
      currencyCode: (seen.body.data as { currencyCode: string }).currencyCode,
      amount: (seen.body.data as { amount: number }).amount,
      expectedPrice: purchase.expectedPrice,
      expiresAt: (seen.body.data as { expiresAt: string }).expiresAt,
      requesterName: 'سارا ک.',
    });
    expect((await post(server, '/api/public/previewPaymentLink', { token: 'A'.repeat(32) })).status).toBe(404);
    // The requester sees the link on their request (never its token).
    const detail = (await post(server, '/api/me/fetchPurchase', { purchase: purchase.id }, bearer(requester.token)))
      .body.data as { paymentLink: { revoked: boolean; payerName: string | null }; payerName: string | null };
    expect(detail.paymentLink).toMatchObject({ revoked: false, payerName: null });
    expect(detail.payerName).toBeNull();
    expect(JSON.stringify(detail)).not.toContain(link.token);
  });

  it('refuses a request not waiting for payment, a stranger’s request, hours out of range and an unknown token', async () => {
    const requester = await money.customer();
    const other = await money.customer();
    const paid = await money.paidRequest(requester);
    const res = await post(server, '/api/me/createPaymentLink', { purchase: paid.id }, bearer(requester.token));
    expect(res.status).toBe(422);
    const waiting = await money.request(requester);
    expect(
      (await post(server, '/api/me/createPaymentLink', { purchase: waiting.id }, bearer(other.token))).status,
    ).toBe(404);
    const tooLong = await post(
      server,
      '/api/me/createPaymentLink',
      { purchase: waiting.id, hours: 169 },
      bearer(requester.token),
    );
    expect(tooLong.status).toBe(400);
    const week = await createLink(requester, waiting.id, 168);
    expect(Date.parse(week.expiresAt) - Date.now()).toBeGreaterThan(167.9 * 3_600_000);
    expect(tooLong.body.msg).toBe('مدت اعتبار پیوند باید از ۱ ساعت تا ۷ روز (۱۶۸ ساعت) باشد.');
    const unknown = await fetchLink(other, 'A'.repeat(32));
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('پیوند پرداخت پیدا نشد. نشانی را دوباره بررسی کنید.');
    expect((await post(server, '/api/me/fetchPaymentLink', { token: 'x' })).status).toBe(401);
  });
});

interface PurchaseView {
  payerName: string | null;
  timeline: { steps: { kind: string; words: string; actor: string; actorTitle: string }[] };
  payments: { amount: number; state: string; collectionId: number | null }[];
}

/** The payer's own word of their payment, in the app and by SMS: what they paid, for whom, where the receipt is. */
async function expectPayerToldPaid(payer: Customer) {
  const notes = await db
    .selectFrom('notifications')
    .select(['id', 'kind', 'text', 'purchaseId'])
    .where('userId', '=', payer.userId)
    .where('kind', 'like', 'purchase%')
    .execute();
  expect(notes.map((n) => n.kind)).toEqual(['purchasePaidForOther']);
  // They cannot open the request: the note links nowhere and names the wallet page, where the receipt is.
  expect(notes[0]!.purchaseId).toBeNull();
  expect(notes[0]!.text).toMatch(/^درخواست «.+» سارا ک\. را با پیوند پرداخت، پرداخت کردید؛ مبلغ [۰-۹٬]+ ریال\./u);
  expect(notes[0]!.text).toContain('رسید آن در «موجودی مالی من» است.');
  const sms = await db
    .selectFrom('notificationSms')
    .select('text')
    .where('notificationId', '=', notes[0]!.id)
    .execute();
  expect(sms.map((m) => m.text)).toEqual([notes[0]!.text]);
}

describe('paying through a link', () => {
  it('pays from the payer’s wallet: the payer’s money is reserved, the requester’s wallet untouched, both see it', async () => {
    const { requester, payer, purchase, link } = await requesterAndPayer();
    await money.deposit(payer, purchase.expectedPrice + 1000);
    await money.deposit(requester, 5000);
    const paid = await payLink(payer, link.token);
    expect(paid.status, paid.body.msg).toBe(200);
    expect(paid.body.data).toMatchObject({
      walletWithdrawAmount: purchase.expectedPrice,
      payable: 0,
      gatewayUrl: null,
      link: { state: 'paidByYou', message: 'پرداخت انجام شد. از اینکه این درخواست را پرداخت کردید سپاسگزاریم.' },
    });
    expect(await money.balanceOf(payer)).toEqual({ balance: 1000, reserved: purchase.expectedPrice });
    expect(await money.balanceOf(requester)).toEqual({ balance: 5000, reserved: 0 });
    expect(await purchaseState(purchase.id)).toEqual({ state: 'paid', payerUserId: payer.userId });

    // The requester: the request is paid, with the payer's name, and a notification naming the payer.
    const detail = (await post(server, '/api/me/fetchPurchase', { purchase: purchase.id }, bearer(requester.token)))
      .body.data as { purchase: { state: string }; payerName: string; paymentLink: { payerName: string } };
    expect(detail.purchase.state).toBe('paid');
    // Named as the link names people: first name and last initial (issue 44 point 4).
    expect(detail.payerName).toBe('سارا ک.');
    expect(detail.paymentLink.payerName).toBe('سارا ک.');
    const notes = await db
      .selectFrom('notifications')
      .select(['kind', 'text'])
      .where('userId', '=', requester.userId)
      .where('purchaseId', '=', purchase.id)
      .execute();
    expect(notes.map((n) => n.kind)).toEqual(['purchasePaidByOther']);
    expect(notes[0]!.text).toContain('سارا ک.');
    expect(notes[0]!.text).not.toContain('کریمی');
    // Paid from the payer's wallet: the timeline says so and names them; no online payment to list.
    const paidStep = (detail as unknown as PurchaseView).timeline.steps.find((s) => s.kind === 'paid');
    expect(paidStep).toMatchObject({ actorTitle: 'پرداخت‌کننده' });
    expect(paidStep!.words).toContain('از کیف پول توسط سارا ک. با پیوند پرداخت');
    expect((detail as unknown as PurchaseView).payments).toEqual([]);
    // The payer hears it too, in the app and by SMS, with where the receipt is.
    await expectPayerToldPaid(payer);
    // The payer: the reservation in their own transactions; the fulfilment task opened as for any paid request.
    const payerTx = await money.transactions(payer);
    expect(payerTx.find((t) => t.type === 'transaction_C')).toMatchObject({
      purchaseId: purchase.id,
      walletAccountEffect: -purchase.expectedPrice,
    });
    expect((await money.transactions(requester)).some((t) => t.type === 'transaction_C')).toBe(false);
    const task = await db.selectFrom('tasks').select('type').where('purchaseId', '=', purchase.id).executeTakeFirst();
    expect(task?.type).toBe('uafCprCpTask');

    // The link is used: a second payer is refused and nothing moves.
    const second = await money.customer();
    await money.deposit(second, purchase.expectedPrice);
    const again = await payLink(second, link.token);
    expect(again.status).toBe(422);
    expect(again.body.msg).toBe('این درخواست پیش‌تر پرداخت شده است.');
    expect(await money.balanceOf(second)).toEqual({ balance: purchase.expectedPrice, reserved: 0 });
    expect((await fetchLink(second, link.token)).body.data).toMatchObject({ state: 'paid' });
  });

  it('pays through the sandbox bank: the collection and the reservation are the payer’s; both open the receipt', async () => {
    const { requester, payer, purchase, link } = await requesterAndPayer();
    await money.deposit(payer, 1000);
    const started = await payLink(payer, link.token);
    expect(started.status, started.body.msg).toBe(200);
    const data = started.body.data as { gatewayUrl: string; payable: number; walletWithdrawAmount: number };
    expect(data.payable).toBe(purchase.expectedPrice - 1000);
    const back = await fetch(await money.payAtSandboxBankOnly(payer, data.gatewayUrl), { redirect: 'manual' });
    expect(back.status).toBe(303);
    const landing = back.headers.get('location');
    expect(landing).toMatch(/^\/pay-result\?payment=success&receipt=\d+$/);
    expect(await money.balanceOf(payer)).toEqual({ balance: 0, reserved: purchase.expectedPrice });
    expect(await money.balanceOf(requester)).toEqual({ balance: 0, reserved: 0 });
    expect(await purchaseState(purchase.id)).toEqual({ state: 'paid', payerUserId: payer.userId });

    const collection = await db
      .selectFrom('collections')
      .select(['id', 'userId'])
      .where('purchaseId', '=', purchase.id)
      .executeTakeFirstOrThrow();
    expect(collection.userId).toBe(payer.userId);
    // The result page links the payer's receipt of this very payment (issue 44 point 4).
    expect(landing).toBe(`/pay-result?payment=success&receipt=${collection.id}`);
    const types = (await money.transactions(payer)).map((t) => t.type);
    expect(types).toEqual(expect.arrayContaining(['transaction_A', 'transaction_C']));
    const mine = await post(server, '/api/me/fetchCollection', { collection: collection.id }, bearer(payer.token));
    expect(mine.status, mine.body.msg).toBe(200);
    expect(mine.body.data).toMatchObject({ payerName: 'سارا کریمی', nationalCode: payer.nationalCode });
    const theirs = await post(
      server,
      '/api/me/fetchCollection',
      { collection: collection.id },
      bearer(requester.token),
    );
    expect(theirs.status, theirs.body.msg).toBe(200);
    expect(theirs.body.data).toMatchObject({ payerName: 'سارا کریمی', nationalCode: null, cardNo: null });

    // The requester's request: who paid, the timeline's «از درگاه بانک» and «پرداخت‌های آنلاین» tell one story,
    // the payer's payment listed with the receipt they may open (issue 44 point 4).
    const detail = (await post(server, '/api/me/fetchPurchase', { purchase: purchase.id }, bearer(requester.token)))
      .body.data as PurchaseView;
    expect(detail.payerName).toBe('سارا ک.');
    const paidStep = detail.timeline.steps.find((s) => s.kind === 'paid');
    expect(paidStep).toMatchObject({ actor: 'bank' });
    expect(paidStep!.words).toContain('از درگاه بانک توسط سارا ک. با پیوند پرداخت');
    expect(detail.payments).toEqual([
      expect.objectContaining({ amount: purchase.expectedPrice - 1000, state: 'settled', collectionId: collection.id }),
    ]);
    const told = await db
      .selectFrom('notifications')
      .select('text')
      .where('userId', '=', requester.userId)
      .where('kind', '=', 'purchasePaidByOther')
      .executeTakeFirstOrThrow();
    expect(told.text).toContain('رسید آن در «پرداخت‌های آنلاین» همین درخواست است');
    await expectPayerToldPaid(payer);
    const stranger = await money.customer();
    expect(
      (await post(server, '/api/me/fetchCollection', { collection: collection.id }, bearer(stranger.token))).status,
    ).toBe(404);
  });

  it('refuses another person’s card for the payer (the requester’s own card too): the money goes back to that card', async () => {
    const { requester, payer, purchase, link } = await requesterAndPayer();
    const started = await payLink(payer, link.token);
    const { gatewayUrl } = started.body.data as { gatewayUrl: string };
    const back = await fetch(await money.payAtSandboxBankOnly(payer, gatewayUrl, requester.nationalCode), {
      redirect: 'manual',
    });
    expect(back.headers.get('location')).toBe('/pay-result?payment=cardMismatch');
    expect(await money.balanceOf(payer)).toEqual({ balance: 0, reserved: 0 });
    expect(await money.balanceOf(requester)).toEqual({ balance: 0, reserved: 0 });
    expect((await purchaseState(purchase.id)).state).toBe('waitingForPayment');
    const h = (await money.transactions(payer)).find((t) => t.type === 'transaction_H');
    expect(h).toMatchObject({ refundedToUnsafe: true, cause: 'cardMismatch', purchaseId: purchase.id });
  });

  it('a failure of the request returns the whole price to the payer’s wallet, not the requester’s', async () => {
    const { requester, payer, purchase, link } = await requesterAndPayer();
    await money.deposit(payer, purchase.expectedPrice);
    expect((await payLink(payer, link.token)).status).toBe(200);
    const task = await db
      .selectFrom('tasks')
      .select('id')
      .where('purchaseId', '=', purchase.id)
      .executeTakeFirstOrThrow();
    await post(server, '/api/sys/fetchFulfilmentTaskData', { taskId: task.id }, bearer(staff.token));
    const res = await failed(purchase.id);
    expect(res.status, res.body.msg).toBe(200);
    expect(await money.balanceOf(payer)).toEqual({ balance: purchase.expectedPrice, reserved: 0 });
    expect(await money.balanceOf(requester)).toEqual({ balance: 0, reserved: 0 });
    expect((await money.transactions(payer)).find((t) => t.type === 'transaction_E')).toMatchObject({
      purchaseId: purchase.id,
      walletAccountEffect: purchase.expectedPrice,
    });
    // Both are told: the requester that it failed, the payer that their money came back.
    const kinds = await db
      .selectFrom('notifications')
      .select(['userId', 'kind', 'text'])
      .where('kind', '=', 'purchaseFailed')
      .where('userId', 'in', [payer.userId, requester.userId])
      .execute();
    expect(kinds.map((k) => k.userId).sort()).toEqual([requester.userId, payer.userId].sort());
    // The requester reads where the money went: the payer's wallet, not their own.
    const textOf = (userId: number) => kinds.find((k) => k.userId === userId)!.text;
    expect(textOf(requester.userId)).toContain('در کیف پول پرداخت‌کننده آزاد شد');
    expect(textOf(payer.userId)).toContain('در کیف پول آزاد شد');
    // Staff's reason is the requester's to read; the payer is told only that it failed (decision 028), in the
    // notification, its stored parameters and its SMS alike.
    expect(textOf(requester.userId)).toContain('حساب آزمون بسته است');
    await expectPayerNotToldReason(payer, 'purchaseFailed', 'حساب آزمون بسته است');
    expect(textOf(payer.userId)).toContain('دلیل آن به درخواست‌دهنده گفته شد');
  });

  it('a refund after the requester’s error tells the payer what was kept, not staff’s reason', async () => {
    const { requester, payer, purchase, link } = await requesterAndPayer();
    await money.deposit(payer, purchase.expectedPrice);
    expect((await payLink(payer, link.token)).status).toBe(200);
    const reason = 'رمز ETS مشتری اشتباه است';
    const res = await post(
      server,
      '/api/sys/uafCprRefundUserError',
      { purchase: purchase.id, reason },
      bearer(staff.token),
    );
    expect(res.status, res.body.msg).toBe(200);
    const told = await db
      .selectFrom('notifications')
      .select(['userId', 'text'])
      .where('userId', 'in', [requester.userId, payer.userId])
      .where('kind', '=', 'purchaseRefunded')
      .execute();
    expect(told.find((n) => n.userId === requester.userId)!.text).toContain(reason);
    expect(told.find((n) => n.userId === payer.userId)!.text).toContain('خطای درخواست‌دهنده');
    await expectPayerNotToldReason(payer, 'purchaseRefunded', reason);
  });

  it('the finished request’s public receipt names the payer, not the requester', async () => {
    const { requester, payer, purchase, link } = await requesterAndPayer();
    // Two different names, so the masked initials tell them apart.
    await db
      .updateTable('users')
      .set({ firstName: 'مریم', lastName: 'احمدی' })
      .where('id', '=', payer.userId)
      .execute();
    await money.deposit(payer, purchase.expectedPrice);
    expect((await payLink(payer, link.token)).status).toBe(200);
    const done = await post(
      server,
      '/api/sys/uafCprDone',
      { purchase: purchase.id, realPrice: purchase.expectedPrice - 5_000, currencyPaymentReference: 'ETS-43-9' },
      bearer(staff.token),
    );
    expect(done.status, done.body.msg).toBe(200);
    const detail = (await post(server, '/api/me/fetchPurchase', { purchase: purchase.id }, bearer(requester.token)))
      .body.data as { currencyPayment: { verificationCode: string } };
    const verified = await post(server, '/api/public/verifyReceipt', { code: detail.currencyPayment.verificationCode });
    expect(verified.status, verified.body.msg).toBe(200);
    expect(verified.body.data).toMatchObject({ kind: 'request', state: 'done', payerName: 'م*** ا***' });
  });
});

describe('links that move nothing', () => {
  it('a revoked link: its payer is told so and nothing moves; a payment started before the revoke credits the payer’s wallet', async () => {
    const { requester, payer, purchase, link } = await requesterAndPayer();
    const started = await payLink(payer, link.token);
    const { gatewayUrl, payable } = started.body.data as { gatewayUrl: string; payable: number };
    const revoked = await post(server, '/api/me/revokePaymentLink', { purchase: purchase.id }, bearer(requester.token));
    expect(revoked.status, revoked.body.msg).toBe(200);
    expect(revoked.body.data).toMatchObject({ revoked: true });
    expect((await fetchLink(payer, link.token)).body.data).toMatchObject({
      state: 'revoked',
      message: 'این پیوند پرداخت باطل شده است. از درخواست‌کننده پیوند تازه بخواهید.',
    });
    await money.deposit(payer, purchase.expectedPrice);
    const refused = await payLink(payer, link.token);
    expect(refused.status).toBe(422);
    expect(refused.body.msg).toBe('این پیوند پرداخت باطل شده است. از درخواست‌کننده پیوند تازه بخواهید.');
    expect(await money.balanceOf(payer)).toEqual({ balance: purchase.expectedPrice, reserved: 0 });
    // The bank payment opened before the revoke arrives: it stays the payer's, the request still waits.
    const back = await fetch(await money.payAtSandboxBankOnly(payer, gatewayUrl), { redirect: 'manual' });
    expect(back.headers.get('location')).toBe('/pay-result?payment=walletCredited');
    expect(await money.balanceOf(payer)).toEqual({ balance: purchase.expectedPrice + payable, reserved: 0 });
    expect((await purchaseState(purchase.id)).state).toBe('waitingForPayment');
    expect(
      (await post(server, '/api/me/revokePaymentLink', { purchase: purchase.id }, bearer(requester.token))).status,
    ).toBe(422);
  });

  it('an expired link and a cancelled request say so and move nothing', async () => {
    const { requester, payer, purchase, link } = await requesterAndPayer();
    await money.deposit(payer, purchase.expectedPrice);
    await db
      .updateTable('paymentLinks')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('purchaseId', '=', purchase.id)
      .execute();
    const expired = await payLink(payer, link.token);
    expect(expired.status).toBe(422);
    expect(expired.body.msg).toBe('مهلت این پیوند پرداخت به پایان رسیده است. از درخواست‌کننده پیوند تازه بخواهید.');
    expect((await fetchLink(payer, link.token)).body.data).toMatchObject({ state: 'expired' });

    const fresh = await createLink(requester, purchase.id, 2);
    expect((await fetchLink(payer, fresh.token)).body.data).toMatchObject({ state: 'open' });
    // The earlier link stays dead: a new one revoked it.
    expect((await fetchLink(payer, link.token)).body.data).toMatchObject({ state: 'revoked' });
    expect(
      (await post(server, '/api/me/cancelPurchase', { purchase: purchase.id }, bearer(requester.token))).status,
    ).toBe(200);
    const cancelled = await payLink(payer, fresh.token);
    expect(cancelled.status).toBe(422);
    expect(cancelled.body.msg).toBe('این درخواست لغو شده است و پرداخت نمی‌شود.');
    expect(await money.balanceOf(payer)).toEqual({ balance: purchase.expectedPrice, reserved: 0 });
  });

  it('one payer per link: once a payer started paying, another is refused', async () => {
    const { payer, purchase, link } = await requesterAndPayer();
    expect((await payLink(payer, link.token)).status).toBe(200); // opened at the bank, not paid
    const second = await money.customer();
    await money.deposit(second, purchase.expectedPrice);
    const refused = await payLink(second, link.token);
    expect(refused.status).toBe(422);
    expect(refused.body.msg).toBe(
      'پرداخت‌کنندهٔ دیگری پرداخت این پیوند را آغاز کرده است؛ هر پیوند فقط یک پرداخت‌کننده دارد.',
    );
    expect(await money.balanceOf(second)).toEqual({ balance: purchase.expectedPrice, reserved: 0 });
  });

  it('parallel pays through one link, by one payer and by several, pay once', async () => {
    const { payer, purchase, link } = await requesterAndPayer();
    const others = [await money.customer(), await money.customer()];
    for (const who of [payer, ...others]) await money.deposit(who, purchase.expectedPrice);
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => payLink(payer, link.token)),
      ...others.map((who) => payLink(who, link.token)),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results) expect([200, 409, 422]).toContain(r.status);
    const reserved = await Promise.all([payer, ...others].map((who) => money.balanceOf(who)));
    expect(reserved.map((b) => b.reserved).sort()).toEqual([0, 0, purchase.expectedPrice]);
    expect((await purchaseState(purchase.id)).state).toBe('paid');
  });

  it('replays the same Idempotency-Key with the first answer', async () => {
    const { payer, purchase, link } = await requesterAndPayer();
    await money.deposit(payer, purchase.expectedPrice);
    const key = money.newKey();
    const first = await payLink(payer, link.token, key);
    const again = await payLink(payer, link.token, key);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(await money.balanceOf(payer)).toEqual({ balance: 0, reserved: purchase.expectedPrice });
  });

  it('an unverified payer is refused and nothing moves', async () => {
    const { link, purchase } = await requesterAndPayer();
    const token = await loginByCode(server, '09137777001');
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as { id: number };
    const unverified: Customer = { token, userId: me.id, nationalCode: '' };
    await money.deposit(unverified, purchase.expectedPrice);
    const res = await payLink(unverified, link.token);
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe('برای پرداخت، ابتدا پروفایل شما باید تایید شده باشد.');
    expect(await money.balanceOf(unverified)).toEqual({ balance: purchase.expectedPrice, reserved: 0 });
    // Nothing was claimed: a verified payer may still pay.
    const payer = await money.customer();
    await money.deposit(payer, purchase.expectedPrice);
    expect((await payLink(payer, link.token)).status).toBe(200);
  });

  it('a payer who opened the link before their identity was approved is told, once, that they can pay it now', async () => {
    const { purchase, link } = await requesterAndPayer();
    const mobileNo = '09137777002';
    const token = await loginByCode(server, mobileNo);
    const seen = await fetchLink({ token, userId: 0, nationalCode: '' }, link.token);
    expect(seen.status).toBe(200);
    const { deskTitle } = seen.body.data as LinkView;
    // A second link of another requester, revoked before the approval: nothing is said about it.
    const other = await requesterAndPayer();
    expect((await fetchLink({ token, userId: 0, nationalCode: '' }, other.link.token)).status).toBe(200);
    await post(server, '/api/me/revokePaymentLink', { purchase: other.purchase.id }, bearer(other.requester.token));

    await verifiedCustomer(server, mobileNo, nationalCodeFor(7702));
    const payer = await db.selectFrom('users').select('id').where('mobileNo', '=', mobileNo).executeTakeFirstOrThrow();
    const notes = await db
      .selectFrom('notifications')
      .select(['id', 'kind', 'text', 'purchaseId'])
      .where('userId', '=', payer.id)
      .execute();
    // The approval's word is the link's: who asks, for what and how much; not the plain «پروفایل شما تأیید شد».
    expect(notes.map((n) => n.kind)).toEqual(['payLinkPayable']);
    expect(notes[0]!.text).toBe(
      `پروفایل شما تأیید شد؛ اکنون می‌توانید درخواست «${deskTitle}» سارا ک. را با همان پیوند پرداختی که ` +
        `برایتان فرستاده شده، پرداخت کنید؛ مبلغ ${formatRial(purchase.expectedPrice)}.`,
    );
    expect(notes[0]!.purchaseId).toBeNull();
    const sms = await db
      .selectFrom('notificationSms')
      .select('text')
      .where('notificationId', '=', notes[0]!.id)
      .execute();
    expect(sms.map((m) => m.text)).toEqual([notes[0]!.text]);
    // Told once: opening the link again after approval remembers nothing more.
    const payerToken = await loginByCode(server, mobileNo);
    expect((await fetchLink({ token: payerToken, userId: payer.id, nationalCode: '' }, link.token)).status).toBe(200);
    const waiting = await db
      .selectFrom('paymentLinkWaitingPayers')
      .select(['linkId', 'toldAt'])
      .where('userId', '=', payer.id)
      .orderBy('linkId')
      .execute();
    expect(waiting.map((w) => w.toldAt !== null)).toEqual([true, false]);
  });

  it('the requester cannot pay through their own link (they pay their request as always)', async () => {
    const { requester, purchase, link } = await requesterAndPayer();
    await money.deposit(requester, purchase.expectedPrice);
    expect((await fetchLink(requester, link.token)).body.data).toMatchObject({ ownLink: true, state: 'open' });
    const res = await payLink(requester, link.token);
    expect(res.status).toBe(422);
    expect(res.body.msg).toBe('این پیوند را خودتان ساخته‌اید؛ درخواست را از صفحهٔ «درخواست‌های من» پرداخت کنید.');
    expect(await money.balanceOf(requester)).toEqual({ balance: purchase.expectedPrice, reserved: 0 });
    expect((await money.payOk(requester, purchase.id)).purchase.state).toBe('paid');
    expect(await purchaseState(purchase.id)).toEqual({ state: 'paid', payerUserId: null });
  });
});

describe('what the payer receives', () => {
  it('never carries the request’s form fields, not even a write-only password', async () => {
    const { payer, purchase, link } = await requesterAndPayer();
    const received: unknown[] = [];
    received.push((await fetchLink(payer, link.token)).body);
    // Its quote expired: the payer is shown a fresh price and pays it.
    await db
      .updateTable('quotes')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(
        'id',
        '=',
        (await db.selectFrom('purchases').select('quoteId').where('id', '=', purchase.id).executeTakeFirstOrThrow())
          .quoteId,
      )
      .execute();
    const repriced = await fetchLink(payer, link.token);
    received.push(repriced.body);
    const view = repriced.body.data as LinkView;
    expect(view.quoteId).not.toBeNull();
    await money.deposit(payer, view.expectedPrice);
    const withoutQuote = await payLink(payer, link.token);
    expect(withoutQuote.status).toBe(409);
    // As payPurchase answers: a fresh quote of the same inputs to pay with (decision 037).
    const fresh = (withoutQuote.body.data as { quote: { quoteId: string; expectedPrice: number } }).quote;
    expect(fresh.quoteId).toEqual(expect.any(String));
    expect(fresh.expectedPrice).toBe(view.expectedPrice);
    received.push(withoutQuote.body);
    const paid = await payLink(payer, link.token, money.newKey(), { quoteId: view.quoteId });
    expect(paid.status, paid.body.msg).toBe(200);
    received.push(paid.body);
    received.push((await fetchLink(payer, link.token)).body);
    received.push(await money.transactions(payer));
    const text = JSON.stringify(received);
    for (const secret of ['secret', 'student1', 'ets.org', 'targetPage', 'fields', 'customerName', '0913']) {
      expect(text).not.toContain(secret);
    }
    expect(await money.balanceOf(payer)).toEqual({ balance: 0, reserved: view.expectedPrice });
  });
});
