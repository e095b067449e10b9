/**
 * Adding a desk is adding one JSON file: a temporary copy of the catalogue gets a new desk, passes its
 * meta-schema, and the server started on it lists it, prices it, and the web renders its form, with no code change.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSchemaTree } from '../../codegen/validate-schemas';
import { launchBrowser, PHONE } from '../support/browser';
import { bearer, loginByCode, post, type RunningServer, startServer } from '../support/server';

const schemas = mkdtempSync(path.join(os.tmpdir(), 'arzpay-schemas-'));
let server: RunningServer;
let browser: Browser;

const newDesk = {
  $schema: '../../meta/desk.schema.json',
  identifier: 'ucasGeneralCpr',
  productCategory: 'educational',
  formType: 'generalCpr',
  businessType: 'simple',
  title: 'پرداخت هزینه UCAS',
  subTitle: 'UCAS',
  description: 'هزینه ثبت درخواست دانشگاه‌های انگلستان در سامانه UCAS',
  img: '/img/categories/educational.svg',
  to: '/desks/ucasGeneralCpr',
  isCashService: false,
  comps: { subject: { caption: 'نام دانشگاه', required: true } },
};

beforeAll(async () => {
  cpSync(path.resolve(import.meta.dirname, '../../schemas'), schemas, { recursive: true });
  writeFileSync(path.join(schemas, 'catalogue/desks/ucasGeneralCpr.json'), JSON.stringify(newDesk, null, 2));
  server = await startServer({ env: { SCHEMAS_DIR: schemas } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(schemas, { recursive: true, force: true });
});

describe('add a desk', () => {
  it('passes the meta-schema, and a broken desk file is reported with file and pointer', async () => {
    expect(await validateSchemaTree(schemas)).toEqual([]);
    const broken = mkdtempSync(path.join(os.tmpdir(), 'arzpay-broken-'));
    cpSync(schemas, broken, { recursive: true });
    writeFileSync(
      path.join(broken, 'catalogue/desks/ucasGeneralCpr.json'),
      JSON.stringify({ ...newDesk, productCategory: 'sports', img: 'https://cdn.example.com/x.png' }),
    );
    const problems = await validateSchemaTree(broken);
    rmSync(broken, { recursive: true, force: true });
    expect(problems.map((p) => [path.basename(p.file), p.pointer])).toEqual(
      expect.arrayContaining([
        ['ucasGeneralCpr.json', '/productCategory'],
        ['ucasGeneralCpr.json', '/img'],
      ]),
    );
  });

  it('is listed and priced by the server', async () => {
    const catalogue = await post(server, '/api/public/fetchCatalogue');
    const desks = (catalogue.body.data as { desks: Array<{ identifier: string }> }).desks;
    expect(desks.map((d) => d.identifier)).toContain('ucasGeneralCpr');
    const token = await loginByCode(server, '09193334444');
    const currencies = (await post(server, '/api/public/searchCurrencies')).body.data as {
      items: Array<{ id: number; code: string }>;
    };
    const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
      items: Array<{ id: number; isCash: boolean }>;
    };
    const quote = await post(
      server,
      '/api/me/desks/ucasGeneralCpr/priceInquiry',
      {
        currency: currencies.items.find((c) => c.code === 'GBP')!.id,
        amount: 28.5,
        requestedPaymentMethodGroup: groups.items.find((g) => !g.isCash)!.id,
      },
      bearer(token),
    );
    expect(quote.status).toBe(200);
    expect((quote.body.data as { amount: number }).amount).toBe(28.5);
  });

  it('appears in the service menu and renders its form with its own caption', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(`${server.url}/services/educational`);
    await page.getByRole('link', { name: /پرداخت هزینه UCAS/ }).click();
    await page.waitForURL(`${server.url}/desks/ucasGeneralCpr`);
    await page.getByText('نام دانشگاه').waitFor();
    await page.locator('#root_currency').waitFor();
    await page.close();
  });
});
