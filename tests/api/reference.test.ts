import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/server';
import { adminApi, dataOf, type TypedApi } from '../support/typed-api';

let server: RunningServer;
let admin: TypedApi;
beforeAll(async () => {
  server = await startServer({ web: false });
  admin = await adminApi(server);
});
afterAll(async () => server?.stop());

describe('reference lists for staff', () => {
  const lists = {
    '/api/sys/searchThirdParties': () => admin.POST('/api/sys/searchThirdParties', { body: {} }),
    '/api/sys/searchPaymentMethods': () => admin.POST('/api/sys/searchPaymentMethods', { body: {} }),
    '/api/sys/searchServices': () => admin.POST('/api/sys/searchServices', { body: {} }),
    '/api/sys/searchInternalBankAccounts': () => admin.POST('/api/sys/searchInternalBankAccounts', { body: {} }),
    '/api/sys/searchCurrencyBankAccounts': () => admin.POST('/api/sys/searchCurrencyBankAccounts', { body: {} }),
    '/api/sys/searchPaymentMethodGroups': () => admin.POST('/api/sys/searchPaymentMethodGroups', { body: {} }),
  };
  for (const [path, sample] of [
    ['/api/sys/searchThirdParties', { country: 'US' }],
    ['/api/sys/searchPaymentMethods', { groupTitle: 'کارت اعتباری بین‌المللی' }],
    ['/api/sys/searchServices', { identifier: 'foriWire', isCashService: true }],
    ['/api/sys/searchInternalBankAccounts', { bankName: 'بانک ملت' }],
    ['/api/sys/searchCurrencyBankAccounts', { currencyCode: 'EUR' }],
    ['/api/sys/searchPaymentMethodGroups', { isCash: true }],
  ] as const) {
    it(`${path} lists seeded rows`, async () => {
      const data = await dataOf<{ items: unknown[]; total: number }>(lists[path]());
      expect(data.total).toBeGreaterThan(0);
      expect(data.items).toEqual(expect.arrayContaining([expect.objectContaining(sample)]));
    });
  }

  it('searches and pages services from the catalogue', async () => {
    const data = await dataOf(
      admin.POST('/api/sys/searchServices', { body: { search: 'سفارت', perPage: 2, page: 2 } }),
    );
    expect(data.total).toBe(5);
    expect(data.items).toHaveLength(2);
  });
});
