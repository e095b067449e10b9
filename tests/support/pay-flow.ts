/**
 * A customer's steps through part 1's paying flow in Chromium, as end-to-end tests share them: fill and submit the
 * TOEFL desk (typing key by key), go from the pay step to the sandbox bank, and pay or cancel there.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { choose } from './e2e';

/** Fills the TOEFL desk for a dollar amount and submits it; returns the request's number from the pay step. */
export async function submitToefl(page: Page, baseUrl: string, dollars: string): Promise<number> {
  await page.goto(`${baseUrl}/desks/toeflGeneralCpr`);
  await page.getByTestId('desk-page').waitFor();
  await choose(page, 'currency', 'دلار آمریکا');
  await page.locator('#root_amount').pressSequentially(dollars);
  await choose(page, 'requestedPaymentMethodGroup', 'کارت اعتباری بین‌المللی');
  await page.locator('#root_targetPageAddress').pressSequentially('https://ets.example.org');
  await page.locator('#root_targetPageUsername').pressSequentially('student');
  await page.locator('#root_targetPagePassword').pressSequentially('secret');
  await page.getByTestId('price-summary').waitFor();
  await page.getByTestId('confirm-price').click();
  await page.waitForFunction(
    () => !document.querySelector<HTMLButtonElement>('[data-testid=submit-request]')?.disabled,
  );
  await page.getByTestId('submit-request').click();
  await page.getByTestId('pay-step').waitFor();
  const id = Number(new URL(page.url()).searchParams.get('purchase'));
  expect(id).toBeGreaterThan(0);
  return id;
}

/** From the pay step (or an opened request) on to the sandbox bank's page. */
export async function toBank(page: Page): Promise<void> {
  const pay = page.getByTestId('pay-purchase');
  expect(await pay.textContent()).toContain('پرداخت آنلاین');
  await pay.click();
  await page.waitForURL(/\/sandbox-bank\//);
  await page.locator('[name=cardNo]').waitFor();
}

/** Types a card number on the bank's page (and another holder's national code, when given) and pays. */
export async function payAtBank(page: Page, holderNationalCode?: string): Promise<void> {
  await page.locator('[name=cardNo]').pressSequentially('6037991234567890');
  if (holderNationalCode) {
    await page.locator('[name=holderNationalCode]').fill('');
    await page.locator('[name=holderNationalCode]').pressSequentially(holderNationalCode);
  }
  await page.getByRole('button', { name: 'پرداخت', exact: true }).click();
}
