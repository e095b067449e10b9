import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;
let admin: string;
beforeAll(async () => {
  server = await startServer({ web: false });
  admin = await loginAdmin(server);
});
afterAll(async () => server?.stop());

describe('reference lists for staff', () => {
  for (const [path, sample] of [
    ['/api/sys/searchThirdParties', { country: 'US' }],
    ['/api/sys/searchPaymentMethods', { groupTitle: 'کارت اعتباری بین‌المللی' }],
    ['/api/sys/searchServices', { identifier: 'foriWire', isCashService: true }],
    ['/api/sys/searchInternalBankAccounts', { bankName: 'بانک ملت' }],
    ['/api/sys/searchCurrencyBankAccounts', { currencyCode: 'EUR' }],
    ['/api/sys/searchPaymentMethodGroups', { isCash: true }],
  ] as const) {
    it(`${path} lists seeded rows`, async () => {
      const res = await post(server, path, {}, bearer(admin));
      expect(res.status).toBe(200);
      const data = res.body.data as { items: Array<Record<string, unknown>>; total: number };
      expect(data.total).toBeGreaterThan(0);
      expect(data.items).toEqual(expect.arrayContaining([expect.objectContaining(sample)]));
    });
  }

  it('searches and pages services from the catalogue', async () => {
    const res = await post(server, '/api/sys/searchServices', { search: 'سفارت', perPage: 2, page: 2 }, bearer(admin));
    const data = res.body.data as { items: unknown[]; total: number };
    expect(data.total).toBe(5);
    expect(data.items).toHaveLength(2);
  });
});
