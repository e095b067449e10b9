/**
 * The server's log holds no secret (issue 12): a representative run at the most verbose level (trace, so every
 * request line is logged too) — log-in codes (a wrong one, then the right one), the administrator's and a staff
 * member's password log-in (and a wrong password), a national card image uploaded, shown through its signed
 * address and approved, a desk request with a target page password, paying it through the sandbox bank and another
 * from the wallet, a payment link's page, a receipt's public check, staff revealing the password, a malformed token, a response the contract refuses — and then the
 * whole captured log is searched for every secret the run used and for the shapes of secrets
 * (tests/support/log-scan.ts). The `log` SMS driver's own lines are the SMS and are the one place a code may be.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithExif, uploadForm } from '../support/images';
import { secretsInLog } from '../support/log-scan';
import { moneyHelpers, nationalCodeFor } from '../support/money';
import { ADMIN_PASSWORD, bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ web: false, env: { LOG_LEVEL: 'trace' } });
}, 180_000); // a fresh database migrates: seconds, a minute on a loaded two-core machine
afterAll(async () => server?.stop());

describe('the log of a representative run', () => {
  it('holds none of the tokens, codes, passwords and images the run used', async () => {
    const used: string[] = [ADMIN_PASSWORD];
    const money = moneyHelpers(server);
    await money.ready();

    // Log-in by code: a wrong code first, then the right one.
    const mobileNo = '09127770001';
    expect((await post(server, '/api/public/sendMobileValidationCode', { mobileNo })).status).toBe(200);
    const code = server.lastSmsCode(mobileNo)!;
    expect(code).toMatch(/^\d{5}$/);
    const wrongCode = code === '99999' ? '11111' : String((Number(code) + 1) % 100000).padStart(5, '0');
    expect(
      (await post(server, '/api/me/loginByMobileValidationCode', { mobileNo, validationCode: wrongCode })).status,
    ).toBeGreaterThanOrEqual(400);
    const login = await post(server, '/api/me/loginByMobileValidationCode', { mobileNo, validationCode: code });
    expect(login.status).toBe(200);
    const token = (login.body.data as { userToken: string }).userToken;
    used.push(token);

    // The national card image, its signed address, the profile and its approval.
    const nationalCode = nationalCodeFor(4242);
    const image = await jpegWithExif();
    const uploaded = await fetch(`${server.url}/api/me/uploadFile`, {
      method: 'POST',
      headers: bearer(token),
      body: uploadForm(image, 'card.jpg'),
    });
    expect(uploaded.status).toBe(200);
    const card = ((await uploaded.json()) as { path: string }).path;
    const saved = await post(
      server,
      '/api/me/updateUserData',
      {
        nationalCode,
        firstName: 'سارا',
        lastName: 'کریمی',
        dateOfBirth: '1992-02-02',
        nationalCardImageAddress: card,
      },
      bearer(token),
    );
    expect(saved.status, saved.body.msg).toBe(200);
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as {
      id: number;
      nationalCardImageAddress?: string;
    };
    const admin = await loginAdmin(server);
    used.push(admin);
    expect(
      (await post(server, '/api/me/loginByPassword', { username: '09120000000', password: 'Wrong-Pass-42' })).status,
    ).toBeGreaterThanOrEqual(400);
    used.push('Wrong-Pass-42');
    const tasks = await post(server, '/api/me/searchTasks', { perPage: 500 }, bearer(admin));
    const task = (tasks.body.data as { items: Array<{ id: number; subjectUserId: number }> }).items.find(
      (t) => t.subjectUserId === me.id,
    )!;
    const taskData = await post(server, '/api/sys/fetchApproveProfileAsL1TaskData', { taskId: task.id }, bearer(admin));
    const signed = JSON.stringify(taskData.body).match(/\/storage\/[^"]+/)?.[0];
    expect(signed, 'the task data names the card image by a signed address').toBeTruthy();
    const shown = await fetch(server.url + signed!, { headers: bearer(admin) });
    expect(shown.status).toBe(200);
    used.push(new URL(server.url + signed!).searchParams.get('signature')!);
    expect((await post(server, '/api/sys/approveProfileAsL1', { taskId: task.id }, bearer(admin))).status).toBe(200);
    for (const p of ['Educational', 'InternationalExams', 'Embassies', 'Others']) {
      await post(server, `/api/me/approve${p}Policy`, undefined, bearer(token));
    }

    // A desk request with a password, paid through the sandbox bank; another paid from the wallet.
    const who = { token, userId: me.id, nationalCode };
    const deskPassword = 'Desk-Pass-7Q2x';
    used.push(deskPassword);
    const form = { currency: money.usd.id, amount: 20, requestedPaymentMethodGroup: await cardGroup() };
    const submit = async () => {
      const quote = await post(server, '/api/me/desks/toeflGeneralCpr/priceInquiry', form, bearer(token));
      const res = await post(
        server,
        '/api/me/desks/toeflGeneralCpr/requests',
        {
          ...form,
          quoteId: (quote.body.data as { quoteId: string }).quoteId,
          targetPageAddress: 'https://www.ets.org/toefl/pay',
          targetPageUsername: 'student7',
          targetPagePassword: deskPassword,
        },
        { ...bearer(token), 'idempotency-key': money.newKey() },
      );
      expect(res.status, res.body.msg).toBe(200);
      return res.body.data as { id: number; expectedPrice: number };
    };
    const online = await submit();
    const paying = await money.payOk(who, online.id);
    const bankPage = new URL(paying.gatewayUrl!, server.url);
    expect((await fetch(bankPage)).status).toBe(200);
    const atBank = await fetch(bankPage, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ cardNo: '6037991234567890', holderNationalCode: who.nationalCode, action: 'pay' }),
    });
    const callback = new URL(atBank.headers.get('location')!, bankPage);
    // The callback's own token is a capability in its path (issue 43, point 7).
    const callbackToken = callback.pathname.match(/\/payments\/callback\/([^/]+)/)?.[1];
    expect(callbackToken, callback.pathname).toBeTruthy();
    used.push(callbackToken!);
    const back = await fetch(callback, { redirect: 'manual' });
    expect(back.status).toBe(303);
    expect((await money.purchaseOf(who, online.id)).purchase.state).toBe('paid');
    const fromWallet = await submit();
    await money.deposit(who, fromWallet.expectedPrice);
    expect((await money.payOk(who, fromWallet.id)).purchase.state).toBe('paid');

    // A payment link's page and a receipt's public check: their token and code are path segments (issue 43).
    const another = await submit();
    const link = await post(server, '/api/me/createPaymentLink', { purchase: another.id }, bearer(token));
    expect(link.status, link.body.msg).toBe(200);
    const linkToken = (link.body.data as { token: string }).token;
    used.push(linkToken);
    await fetch(`${server.url}/pay/${linkToken}`);
    const collectionId = (await money.purchaseOf(who, online.id)).payments.find(
      (p) => p.collectionId !== null,
    )!.collectionId!;
    const receipt = await post(server, '/api/me/fetchCollection', { collection: collectionId }, bearer(token));
    const receiptCode = (receipt.body.data as { verificationCode: string }).verificationCode;
    used.push(receiptCode);
    await fetch(`${server.url}/verify/${receiptCode}`);
    await fetch(`${server.url}//verify/${receiptCode}/`);

    // Staff with the fulfilment action reveal it.
    const staff = await money.staffWithActions(['manageCurrencyPayments']);
    used.push(staff.token, 'staff-password-1');
    const revealed = await post(server, '/api/sys/revealPurchaseSecret', { purchase: online.id }, bearer(staff.token));
    expect(revealed.body.data).toEqual({ fields: { targetPagePassword: deskPassword } });

    // A malformed token and a refused one, and a failing reveal (a sealed value altered in the database).
    await post(server, '/api/me/fetchUserData', undefined, {
      authorization: 'Bearer not-a-real-token-but-long-enough',
    });
    await post(server, '/api/me/fetchUserData', undefined, bearer(`${token.slice(0, -2)}xx`));
    used.push(`${token.slice(0, -2)}xx`);
    await server.app.database.db
      .updateTable('purchases')
      .set({ fields: sql`jsonb_set(fields, '{targetPagePassword}', '"enc:v1:xxxxxxxxxx:AAAA:AAAA:AAAA"')` })
      .where('id', '=', fromWallet.id)
      .execute();
    expect(
      (await post(server, '/api/sys/revealPurchaseSecret', { purchase: fromWallet.id }, bearer(staff.token))).status,
    ).toBe(422);

    // The image's bytes (base64 pieces from its middle) must not be there either.
    const b64 = image.toString('base64');
    used.push(b64.slice(100, 140), b64.slice(b64.length / 2, b64.length / 2 + 40));

    expect(server.rawLogs.length).toBeGreaterThan(50); // trace level: every request was logged
    expect(server.rawLogs.some((l) => l.includes('"path":"/api/me/payPurchase"'))).toBe(true);
    const findings = secretsInLog(server.rawLogs, used);
    expect(findings.map((f) => `${f.what}: ${f.text.slice(0, 300)}`)).toEqual([]);
    // The code is only in the log driver's SMS line; the log-in itself did not echo it.
    const withCode = server.rawLogs.filter((l) => l.includes(code) && !l.includes('"msg":"sms"'));
    expect(withCode.filter((l) => /"validationCode"|[^\d]\d{5}[^\d]/.test(l) && l.includes(`"${code}"`))).toEqual([]);
  }, 240_000);
});

let card: number | undefined;
async function cardGroup(): Promise<number> {
  if (card === undefined) {
    const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
      items: Array<{ id: number; isCash: boolean }>;
    };
    card = groups.items.find((g) => !g.isCash)!.id;
  }
  return card;
}
