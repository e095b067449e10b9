/**
 * «برنامه من» on a phone (issue 35, "Done when"), typed and tapped as a person does: a verified customer opens the
 * plan from the drawer, chooses the USA plan and a start date, opens its TOEFL step (the desk's form filled from the
 * plan), submits and pays it at the sandbox bank, and sees the step turn paid on the plan with the total paid. A
 * guest sees the destinations and a log-in prompt.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatDateText } from '../../src/shared/calendar/date-text';
import { TEHRAN_OFFSET_MS } from '../../src/shared/calendar';
import { formatRial } from '../../src/shared/format';
import { animationsDone, keepSignedIn, PHONE, takeScreenshots } from '../support/browser';
import { moneyHelpers, nationalCodeFor } from '../support/money';
import { payAtBank, toBank } from '../support/pay-flow';
import { bearer, post, type RunningServer, verifiedCustomer } from '../support/server';
import { withE2eServer, choose } from '../support/e2e';

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

withE2eServer({}, async (t) => {
  server = t.server;
  browser = t.browser;
});

async function phone(token?: string): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE });
  contexts.push(context);
  if (token) await keepSignedIn(context, token);
  return context.newPage();
}

/** Opens «برنامه من» from the drawer, as a person taps it. */
async function openPlanFromDrawer(page: Page) {
  await page.getByTestId('menu-button').click();
  const drawer = page.getByTestId('drawer');
  await drawer.waitFor();
  await drawer.getByRole('link', { name: 'برنامه من' }).click();
  await page.waitForURL(/\/request\/myPlan$/);
}

describe('my plan', () => {
  it('a guest sees the destinations and is asked to log in', async () => {
    const page = await phone();
    await page.goto(`${server.url}/request/myPlan`);
    await page.getByTestId('plan-login-prompt').waitFor();
    await page.getByTestId('plan-template-usaF1').getByText('هزینهٔ SEVIS I-901').waitFor();
    expect(await page.getByTestId('plan-template-germanyStudy').isVisible()).toBe(true);
  });

  it('chooses the USA plan, opens its TOEFL step, pays it and sees the step paid', async () => {
    const token = await verifiedCustomer(server, '09351230035', nationalCodeFor(35));
    const page = await phone(token);
    await page.goto(server.url);
    await openPlanFromDrawer(page);
    await page.getByTestId('plan-empty').waitFor();

    await choose(page, '#myPlan_plan', 'تحصیل در آمریکا (ویزای F-1)');
    // A start date about ten months ahead, typed in Jalali as a person would.
    const start = new Date(Date.now() + TEHRAN_OFFSET_MS + 300 * 86_400_000).toISOString().slice(0, 10);
    await page.locator('#myPlan_startDate').pressSequentially(formatDateText(start, 'fa'));
    await page.getByTestId('save-plan').click();
    const toefl = page.getByTestId('plan-step-englishTest');
    await toefl.waitFor();
    expect(await toefl.getAttribute('data-state')).toBe('notStarted');
    expect(await toefl.getByTestId('plan-step-state').textContent()).toBe('شروع نشده');
    expect(await page.getByTestId('plan-total-paid').textContent()).toBe(formatRial(0));
    const estimate = await toefl.getByTestId('plan-step-estimate').textContent();
    expect(estimate).toMatch(/ریال$/);
    // The steps as a phone shows them: no serious or critical accessibility problem.
    await animationsDone(page);
    const axe = await new AxeBuilder({ page }).analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);

    // The step opens the TOEFL desk with the plan's currency and amount already in the form.
    await toefl.getByTestId('plan-step-open').click();
    await page.waitForURL(/\/desks\/toeflGeneralCpr\?planStep=englishTest$/);
    await page.getByTestId('plan-prefill-note').waitFor();
    await page.locator('#root_amount').waitFor();
    expect(await page.locator('#root_amount').inputValue()).toBe('۲۵۰');
    await choose(page, '#root_requestedPaymentMethodGroup', 'کارت اعتباری بین‌المللی');
    await page.locator('#root_targetPageAddress').pressSequentially('https://ets.example.org');
    await page.locator('#root_targetPageUsername').pressSequentially('student');
    await page.locator('#root_targetPagePassword').pressSequentially('secret');
    await page.getByTestId('price-summary').waitFor();
    // The price the desk quotes is the plan's estimate.
    expect(await page.getByTestId('price-summary').textContent()).toContain(estimate!);
    await page.getByTestId('confirm-price').click();
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid=submit-request]')?.disabled,
    );
    await page.getByTestId('submit-request').click();
    await page.getByTestId('pay-step').waitFor();
    const id = Number(new URL(page.url()).searchParams.get('purchase'));

    await toBank(page);
    await payAtBank(page);
    await page.waitForURL(/\/request\/myRequests\?purchase=\d+&payment=success/);
    const paid = await post(server, '/api/me/fetchPurchase', { purchase: id }, bearer(token));
    const purchase = (paid.body.data as { purchase: { state: string; expectedPrice: number } }).purchase;
    expect(purchase.state).toBe('paid');

    await openPlanFromDrawer(page);
    const step = page.getByTestId('plan-step-englishTest');
    await page.locator('[data-testid=plan-step-englishTest][data-state=paid]').waitFor();
    expect(await step.getByTestId('plan-step-state').textContent()).toBe('پرداخت شده');
    expect(await page.getByTestId('plan-total-paid').textContent()).toBe(formatRial(purchase.expectedPrice));
    await step.getByTestId('plan-step-request').waitFor();
  }, 180_000);

  it('counts a request paid before the plan was made, with the totals, and shows deadlines in order (issue 44)', async () => {
    const money = moneyHelpers(server);
    await money.ready();
    const who = await money.customer();
    // The customer paid a TOEFL request before making the plan.
    const before = await money.request(who, 250);
    await money.deposit(who, before.expectedPrice);
    await money.payOk(who, before.id);

    const page = await phone(who.token);
    await page.goto(`${server.url}/request/myPlan`);
    await page.getByTestId('plan-empty').waitFor();
    await choose(page, '#myPlan_plan', 'تحصیل در آمریکا (ویزای F-1)');
    const start = new Date(Date.now() + TEHRAN_OFFSET_MS + 300 * 86_400_000).toISOString().slice(0, 10);
    await page.locator('#myPlan_startDate').pressSequentially(formatDateText(start, 'fa'));
    await page.getByTestId('save-plan').click();
    const english = page.locator('[data-testid=plan-step-englishTest][data-state=paid]');
    await english.waitFor();
    expect(await english.getByTestId('plan-step-state').textContent()).toBe('پرداخت شده');
    // No invitation to pay it a second time.
    expect(await english.getByText('پرداخت این مرحله').count()).toBe(0);
    expect(await page.getByTestId('plan-total-paid').textContent()).toBe(formatRial(before.expectedPrice));
    // The steps down the page: their deadlines earliest first, numbered 1, 2, 3….
    const cards = page.locator('[data-testid^=plan-step-][data-state]');
    const shown = await cards.evaluateAll((els) =>
      els.map((el) => ({
        heading: el.querySelector('h3')?.textContent ?? '',
        deadline: el.querySelector('time')?.getAttribute('datetime') ?? '',
      })),
    );
    expect(shown.length).toBe(7);
    expect(shown.map((s) => s.heading.split('.')[0])).toEqual(['۱', '۲', '۳', '۴', '۵', '۶', '۷']);
    const instants = shown.map((s) => Date.parse(s.deadline));
    // Each deadline as every date reads: Jalali, Persian digits, slashes (۱۴۰۵/۱۰/۰۷).
    const deadlineTexts = await cards.evaluateAll((els) => els.map((el) => el.querySelector('time')?.textContent));
    expect(deadlineTexts.every((t) => /^[۰-۹]{4}\/[۰-۹]{2}\/[۰-۹]{2}$/.test(t ?? ''))).toBe(true);
    expect(instants).toEqual([...instants].sort((a, b) => a - b));
    await english.scrollIntoViewIfNeeded();
    if (takeScreenshots)
      await page.screenshot({ path: `${import.meta.dirname}/../artifacts/screenshots/plan-paid-before.png` });
  }, 180_000);
});
