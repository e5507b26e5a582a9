import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/e2e.js';
import type { LocalStack } from '../support/localStackProcess.js';
import { newConsolePage, seriousViolations } from './support/consoleBrowser.js';
import { type ConsoleStack, startConsoleStack } from './support/consoleStack.js';

/*
 * The console for people who do not use a mouse or do not see the screen: axe-core's rules on
 * every screen, and one review done with the keyboard alone, in Debian's chromium against a
 * running local stack.
 */

let stack: LocalStack;
let browser: Browser;
let docs: ConsoleStack['docs'];

/** Presses `key` until the queue's selected row is `id` (at most once per row). */
const selectRow = async (page: Page, id: string) => {
  const rows = await page.locator('.queue-table tbody tr').count();
  for (let i = 0; i <= rows; i++) {
    if ((await page.locator('.queue-table tr.selected').getAttribute('data-id')) === id) return;
    await page.keyboard.press('j');
  }
  throw new Error(`row ${id} never got selected`);
};

let fixture: ConsoleStack | undefined;

beforeAll(async () => {
  fixture = await startConsoleStack({ contract: 'a11y-contract.pdf', invoice: 'a11y-invoice.pdf' });
  ({ stack, browser, docs } = fixture);
}, 120_000);

afterAll(() => fixture?.close());

describe('the review console without a mouse (Debian chromium, axe-core)', () => {
  it('has no serious or critical accessibility violation on the sign-in, queue and review screens', async () => {
    // Prepare
    const page = await newConsolePage(browser);
    await page.goto(stack.endpoints.console);
    await page.waitForSelector('#token');

    // Act
    const signIn = await seriousViolations(page);
    await page.fill('#token', await stack.token('ada', 'reviewer', 'acme'));
    await page.click('button[type=submit]');
    await page.waitForSelector('.queue-table tbody tr');
    const queue = await seriousViolations(page);
    await page.goto(`${stack.endpoints.console}#/review/${docs[1]?.id}`);
    await page.waitForSelector('.pdf-page canvas');
    await page.locator('.claimed', { hasText: 'ada (you)' }).waitFor();
    const review = await seriousViolations(page);

    // Assess
    expect({ signIn, queue, review }).toEqual({ signIn: [], queue: [], review: [] });
  });

  it('opens, claims, corrects and approves a review with the keyboard alone', async () => {
    // Prepare: nothing but keys from here on (the page only reads what is on screen).
    const page = await newConsolePage(browser);
    const id = docs[0]?.id as string;
    await page.goto(stack.endpoints.console);
    await page.waitForSelector('#token:focus');

    // Act: sign in, pick the review, open (claim) it, fill the missing amount, approve.
    await page.keyboard.type(await stack.token('kim', 'reviewer', 'acme'));
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.queue-table tr.selected:focus');
    await selectRow(page, id);
    await page.keyboard.press('Enter');
    await page.locator('.claimed', { hasText: 'kim (you)' }).waitFor();
    await page.keyboard.press('e');
    const focused = await page.evaluate(
      () =>
        (globalThis as unknown as { document: { activeElement: { name?: string } } }).document.activeElement
          .name,
    );
    await page.keyboard.type('125000.00');
    await page.keyboard.press('Tab');
    await page.keyboard.type('EUR');
    await page.keyboard.press('Control+Enter');
    const done = await eventually(`${id} to complete`, async () => {
      const item = await stack.store.get(id);
      return item.state === 'completed' ? item : undefined;
    });

    // Assess
    expect(focused).toBe('totalValue.amount');
    expect(done.summary).toMatchObject({ amount: '125000.00', currency: 'EUR' });
    expect((await stack.store.history(id)).find((e) => e.event === 'approve')).toMatchObject({
      actor: 'kim',
      from: 'review_required',
      to: 'validated',
    });
    await page.waitForSelector('.queue .banner.info');
  });
});
