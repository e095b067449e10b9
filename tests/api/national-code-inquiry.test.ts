/**
 * The national-code lookup reveals a masked mobile number with each answer (issue 15, point 5): it is limited
 * per user (default 10) and per address, with 429 and a Persian message that says how long to wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, loginByCode, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;
beforeAll(async () => {
  // The per-user default (10 an hour); a smaller per-address limit so two customers reach it.
  server = await startServer({
    web: false,
    env: { INQUIRY_LIMIT_PER_IP: '15', INQUIRY_LIMIT_WINDOW_SECONDS: '86400' },
  });
});
afterAll(async () => server?.stop());

/** A valid national code (its check digit computed) from nine digits. */
function nationalCode(n: number): string {
  const base = String(100_000_000 + n).slice(-9);
  const sum = [...base].reduce((s, d, i) => s + Number(d) * (10 - i), 0);
  const r = sum % 11;
  return base + String(r < 2 ? r : 11 - r);
}

const inquire = (token: string, code: string) =>
  post(server, '/api/me/inquiryNationalCode', { nationalCode: code }, bearer(token));

describe('national-code lookup', () => {
  it('answers ten lookups a user, refuses the eleventh with a Persian wait, and still answers the own code', async () => {
    const mobileNo = '09371000001';
    const token = await loginByCode(server, mobileNo);
    const own = nationalCode(1);
    await server.app.database.db
      .updateTable('users')
      .set({ nationalCode: own })
      .where('mobileNo', '=', mobileNo)
      .execute();

    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await inquire(token, nationalCode(100 + i))).status);
    expect(statuses).toEqual(Array(10).fill(200));
    const refused = await inquire(token, nationalCode(200));
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/^تعداد استعلام کد ملی بیش از حد مجاز است\. لطفا [۰-۹]+ (ساعت|دقیقه|ثانیه)/);

    // The profile page looks the own code up on every visit: that reveals nothing and is not held back.
    for (let i = 0; i < 3; i++) {
      const mine = await inquire(token, own);
      expect([mine.status, mine.body.data]).toEqual([200, { otherUserData: null }]);
    }
  });

  it('limits one address across users', async () => {
    // The first test's ten counted for this address too: five more from another user, then 429.
    const token = await loginByCode(server, '09371000002');
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await inquire(token, nationalCode(300 + i))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
