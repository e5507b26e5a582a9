import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowItem } from '../../lambdas/shared/store/index.js';
import { eventually } from '../support/e2e.js';
import type { LocalStack } from '../support/localStackProcess.js';
import { reviewHelpers } from '../support/reviewHelpers.js';
import { newConsolePage, screenshotDir } from './support/consoleBrowser.js';
import { type ConsoleStack, startConsoleStack } from './support/consoleStack.js';

/*
 * One reviewer's session after another in one browser on one stack: the pages signed in by the
 * first tests decide, race and time out in the later ones, and the last test checks what every
 * page before it asked for. The tests build on each other, so the file stays whole (past ~300
 * lines); its helpers are shared with the e2e review tests.
 */

/** The little of the DOM the layout check reads (the tests compile without the DOM library). */
interface BrowserDocument {
  documentElement: { scrollWidth: number; scrollHeight: number };
  querySelector: (
    selector: string,
  ) => { getBoundingClientRect: () => { right: number; bottom: number } } | null;
}

let stack: LocalStack;
let browser: Browser;
let alice: Page;
let bob: Page;
/** The review alice approves in the second test: completed, so compared with its reference. */
let approved: string;
let docs: ConsoleStack['docs'];
/** Every URL any console page asked for, across all the tests: the issue wants no CDN at run time. */
const requested = new Set<string>();

const { inReview } = reviewHelpers(() => stack);

/** Signs in on a fresh context; `prepare` runs first, to stand in for the API where a test needs to. */
const signIn = async (user: string, prepare?: (page: Page) => Promise<void>) => {
  const page = await newConsolePage(browser);
  // On the context, not the page: every page a reviewer opens in it counts.
  page.context().on('request', (request) => requested.add(request.url()));
  await prepare?.(page);
  await page.goto(stack.endpoints.console);
  await page.fill('#token', await stack.token(user, 'reviewer', 'acme'));
  await page.click('button[type=submit]');
  await page.waitForSelector('.queue-table tbody tr');
  return page;
};

const stateOf = (id: string, states: string[]) =>
  eventually(`${id} to reach ${states.join('|')}`, async () => {
    const item = await stack.store.get(id);
    return states.includes(item.state) ? item : undefined;
  });

let fixture: ConsoleStack | undefined;

beforeAll(async () => {
  fixture = await startConsoleStack({ contract: 'msa-kestrel.pdf', invoice: 'inv-alpenblick.pdf' });
  ({ stack, browser, docs } = fixture);
}, 120_000);

afterAll(() => fixture?.close());

describe('the review console in a real browser', () => {
  it('shows the queue by priority with confidence, reasons, a running countdown and who claimed it', async () => {
    // Prepare
    const queue = (await stack.api(await stack.token('x', 'reviewer', 'acme'), 'GET', '/reviews')).body
      .items as { id: string; priority: number }[];

    // Act
    alice = await signIn('alice');
    const rows = alice.locator('.queue-table tbody tr');
    const firstDue = await rows.first().locator('.due').textContent();
    await alice.screenshot({ path: join(await screenshotDir(), 'queue-first.png') });

    // Assess
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')))).toEqual(
      [...queue].sort((a, b) => b.priority - a.priority).map((q) => q.id),
    );
    // The countdown ticks each second: polled until it has, however busy the machine.
    await expect
      .poll(() => rows.first().locator('.due').textContent(), { timeout: 15_000 })
      .not.toBe(firstDue);
    expect(firstDue).toMatch(/^23:59:\d\d$/);
    // Confidence reads as required fields checked, the missing one named, not a mean it drags down.
    const [, checked, required] = (await rows.first().locator('.conf').textContent())?.match(
      /^(\d+) of (\d+)$/,
    ) ?? ['', '', ''];
    expect(Number(checked)).toBeLessThan(Number(required));
    expect(await rows.first().locator('.conf').getAttribute('title')).toMatch(/; weakest: \w+ \(missing\)$/);
    expect(await rows.first().locator('.chip').allTextContents()).toContain('missing required field');
    expect(await rows.first().locator('td').last().textContent()).toBe('—');
  });

  it('opens the top review, corrects the missing field, approves, and the workflow completes', async () => {
    // Prepare: Enter opens the selected (top) row; opening claims it.
    await alice.keyboard.press('Enter');
    await alice.waitForSelector('.pdf-page canvas');
    const id = (await alice.locator('section.document').getAttribute('data-id')) as string;
    const missing = alice.locator('.field.conf-missing');
    const field = (await missing.first().getAttribute('data-field')) as string;
    const value = field === 'totalValue' ? { amount: '125000.00', currency: 'EUR' } : '677652.31';
    // Clicking a field (its name, not only its source link) marks its value within its line.
    await alice.locator('.field[data-field$="Number"] .field-name').first().click();
    const mark = alice.locator('.pdf-mark[data-match="value"]');
    await mark.waitFor();
    const [valueBox, lineBox] = [await mark.boundingBox(), await alice.locator('.pdf-line').boundingBox()];
    await alice.screenshot({ path: join(await screenshotDir(true), 'review.png') });

    // Act: fill the field, then Ctrl+Enter approves without leaving it.
    if (typeof value === 'string') await alice.fill(`.field[data-field="${field}"] input`, value);
    else {
      await alice.fill(`[name="${field}.amount"]`, value.amount);
      await alice.fill(`[name="${field}.currency"]`, value.currency);
    }
    await alice.keyboard.press('Control+Enter');
    const done: WorkflowItem = await stateOf(id, ['completed']);
    approved = id;

    // Assess
    // The value's mark sits inside its line's (x only: the page may still be scrolling), narrower.
    expect(valueBox && lineBox).toBeTruthy();
    if (valueBox && lineBox) {
      expect(valueBox.width).toBeLessThan(lineBox.width);
      expect(valueBox.x).toBeGreaterThanOrEqual(lineBox.x);
      expect(valueBox.x + valueBox.width).toBeLessThanOrEqual(lineBox.x + lineBox.width);
    }
    expect(await stack.store.get(id).then((w) => w.review?.claimedBy)).toBe('alice');
    expect(done.summary?.amount).toBe(typeof value === 'string' ? value : value.amount);
    const approve = (await stack.store.history(id)).find((e) => e.event === 'approve');
    expect(approve).toEqual(
      expect.objectContaining({ actor: 'alice', from: 'review_required', to: 'validated' }),
    );
    // Back on the queue, which says what happened and has the next review selected, unclaimed:
    // nothing is held for a reviewer who steps away now.
    const other = docs.find((d) => d.id !== id)?.id as string;
    await alice.waitForSelector(`.queue-table tr.selected[data-id="${other}"]`);
    expect(await alice.locator('.queue .banner.info').textContent()).toMatch(
      new RegExp(`^Corrected \\(${field}\\) and approved `),
    );
    expect((await stack.store.get(other)).review?.claimedBy).toBeUndefined();
  });

  it('claims the next review only when the reviewer opens it (Enter on the selected row)', async () => {
    // Prepare: alice is on the queue with the next review selected.
    const id = (await alice.locator('.queue-table tr.selected').getAttribute('data-id')) as string;

    // Act
    await alice.keyboard.press('Enter');
    await alice.locator('.claimed', { hasText: 'alice (you)' }).waitFor();
    const claim = (await stack.store.get(id)).review;

    // Assess: the head names her claim, since and until when it holds (15 minutes on).
    expect(claim?.claimedBy).toBe('alice');
    expect(Date.parse(claim?.claimExpiresAt ?? '') - Date.parse(claim?.claimedAt ?? '')).toBe(900_000);
    expect(await alice.locator('.claimed').textContent()).toMatch(
      /^claimed by alice \(you\) since \d\d:\d\d, until \d\d:\d\d$/,
    );
  });

  it('tells a second reviewer whose approve comes too late that someone else decided (409)', async () => {
    // Prepare: bob opens the review alice is on; alice rejects it first, from the keyboard.
    const id = (await alice.locator('section.document').getAttribute('data-id')) as string;
    bob = await signIn('bob');
    await bob.goto(`${stack.endpoints.console}#/review/${id}`);
    await bob.waitForSelector('.field');
    await alice.locator('.pdf-pane').focus();
    await alice.keyboard.press('r');
    await alice.keyboard.type('Vendor is not under contract');
    await alice.keyboard.press('Enter');
    await stateOf(id, ['rejected']);

    // Act
    await bob.click('button[data-action="approve"]');
    const banner = bob.locator('.banner[data-status="409"]', { hasText: 'alice decided "reject"' });
    await banner.waitFor();

    // Assess
    expect(await banner.textContent()).toMatch(
      /^Someone else got here first: alice decided "reject" at .+\. Nothing you entered was saved\.$/,
    );
    expect(await bob.locator('button[data-action="approve"]').isDisabled()).toBe(true);
    expect((await stack.store.get(id)).review?.decision).toEqual(
      expect.objectContaining({
        decision: 'reject',
        reviewer: 'alice',
        reason: 'Vendor is not under contract',
      }),
    );
  });

  it('keeps the layout inside 1280x800 with a very long field value', async () => {
    // Prepare: same content under a new name: the cached extraction sends it straight to review.
    docs.push(await inReview('contract-0006', 'msa-kestrel-copy.pdf'));
    const id = docs[2]?.id as string;
    await bob.goto(`${stack.endpoints.console}#/review/${id}`);
    await bob.waitForSelector('.field[data-field="customer"] input');

    // Act
    await bob.fill(
      '.field[data-field="customer"] input',
      `Initech ${'Holdings and Subsidiaries '.repeat(20)}`,
    );
    const layout = await bob.evaluate(() => {
      const doc = (globalThis as unknown as { document: BrowserDocument }).document;
      const box = (selector: string) => doc.querySelector(selector)?.getBoundingClientRect();
      return {
        scrollWidth: doc.documentElement.scrollWidth,
        scrollHeight: doc.documentElement.scrollHeight,
        side: box('.side'),
        field: box('.field[data-field="customer"]'),
        approve: box('button[data-action="approve"]'),
      };
    });

    // Assess
    expect(layout.scrollWidth).toBeLessThanOrEqual(1280);
    expect(layout.scrollHeight).toBeLessThanOrEqual(800);
    expect(layout.side?.right).toBeLessThanOrEqual(1280);
    expect(layout.field?.right).toBeLessThanOrEqual(layout.side?.right ?? 0);
    expect(layout.approve?.bottom).toBeLessThanOrEqual(800);
  });

  it('tells the reviewer the review expired (410) and changes nothing', async () => {
    // Prepare: bob has it open; its deadline passes (set in the store, as time would).
    const id = docs[2]?.id as string;
    await stack.store.update(id, { 'review.dueAt': new Date(Date.now() - 1000).toISOString() });

    // Act
    await bob.locator('.pdf-pane').focus();
    await bob.keyboard.press('a');
    const banner = bob.locator('.banner[data-status="410"]');
    await banner.waitFor();

    // Assess
    expect(await banner.textContent()).toMatch(
      /^This review has expired: The review of .* timed out at .*; nothing was changed\./,
    );
    const item = await stack.store.get(id);
    expect(item.state).toBe('review_required');
    expect(item.review?.decision).toBeUndefined();
  });

  it('tells a reviewer a review still being set up to try again, keeps it open, and claims on retry', async () => {
    // Prepare: a new review as request-review leaves it for a moment: waiting, no token yet.
    docs.push(await inReview('invoice-0007', 'inv-alpenblick-copy.pdf'));
    const id = docs[3]?.id as string;
    const token = (await stack.store.get(id)).reviewTaskToken;
    await stack.store.update(id, { reviewTaskToken: null });

    // Act
    await alice.goto(`${stack.endpoints.console}#/review/${id}`);
    const banner = alice.locator('.banner.warn[data-status="409"]');
    await banner.waitFor();
    const told = await banner.textContent();
    const approveDisabled = await alice.locator('button[data-action="approve"]').isDisabled();
    await stack.store.update(id, { reviewTaskToken: token });
    await banner.locator('button[data-action="retry-claim"]').click();
    await banner.waitFor({ state: 'hidden' });

    // Assess
    expect(told).toMatch(
      /^Not ready yet: The review of .* is still being set up; try again in a moment\. Try again$/,
    );
    expect(approveDisabled).toBe(false);
    expect(await alice.locator('.claimed').textContent()).toMatch(/^claimed by alice \(you\) since /);
    expect((await stack.store.get(id)).review?.claimedBy).toBe('alice');
  });

  it('warns a reviewer who opens a review another holds, names them, and lets them take it over', async () => {
    // Prepare: alice holds the review from the test before.
    const id = docs[3]?.id as string;
    const held = (await stack.store.get(id)).review;

    // Act
    await bob.goto(`${stack.endpoints.console}#/review/${id}`);
    const banner = bob.locator('.banner.warn[data-status="409"]', { hasText: 'alice' });
    await banner.waitFor();
    const warned = await banner.textContent();
    await bob.screenshot({ path: join(await screenshotDir(), 'claimed-by-other.png') });
    const whileWarned = (await stack.store.get(id)).review;
    const approveDisabled = await bob.locator('button[data-action="approve"]').isDisabled();
    await banner.locator('button[data-action="take-over"]').click();
    await bob.locator('.banner.info', { hasText: 'You took this review over from alice.' }).waitFor();

    // Assess: bob's opening changed nothing; taking over made him the holder.
    expect(warned).toMatch(/^alice is working on this review\. Take it over .*\. Take over$/);
    expect(whileWarned).toMatchObject({ claimedBy: 'alice', dueAt: held?.dueAt });
    expect(approveDisabled).toBe(false);
    expect(await bob.locator('.claimed').textContent()).toMatch(/^claimed by bob \(you\) since /);
    expect((await stack.store.get(id)).review?.claimedBy).toBe('bob');
  });

  it('shows a claim that ran out as free in the queue; opening it claims it without a take-over', async () => {
    // Prepare: bob holds the review from the test before; his claim runs out (set in the store, as
    // time would, and as the 410 test moves the due time).
    const id = docs[3]?.id as string;
    await stack.store.update(id, { 'review.claimExpiresAt': new Date(Date.now() - 60_000).toISOString() });
    await alice.goto(`${stack.endpoints.console}#/`);
    const row = alice.locator(`.queue-table tr[data-id="${id}"]`);

    // Act
    const cell = await row.locator('td.claim').textContent();
    // The README's picture of the queue: claims that hold and one that ran out, side by side.
    await alice.screenshot({ path: join(await screenshotDir(true), 'queue.png') });
    await row.click();
    await alice.locator('.banner.info', { hasText: "bob's claim on this review had run out" }).waitFor();

    // Assess
    expect(cell).toMatch(/^free \(bob's claim ran out at \d\d:\d\d\)$/);
    expect(await alice.locator('button[data-action="take-over"]').count()).toBe(0);
    expect((await stack.store.get(id)).review?.claimedBy).toBe('alice');
  });

  it('says it shows only the first 2,000 of a longer queue, most urgent first', async () => {
    // Prepare: a stand-in for GET /reviews with 2,001 reviews, paged as the API does (the store
    // would take minutes to fill); everything else is the real stack.
    const queue = Array.from({ length: 2001 }, (_, i) => ({
      id: `wf-long-${i}`,
      docType: 'invoice',
      sourceKey: `acme/inbox/long-${i}.pdf`,
      confidence: 0.5,
      priority: 999 - Math.floor(i / 10),
      reasons: [],
      dueAt: new Date(Date.now() + 3_600_000).toISOString(),
    }));
    const standIn = async (page: Page) => {
      await page.route(
        (url) => url.pathname.endsWith('/reviews'),
        (route) => {
          const url = new URL(route.request().url());
          const start = Number(url.searchParams.get('cursor') ?? 0);
          const end = start + Math.min(500, Number(url.searchParams.get('limit') ?? 50));
          const cursor = end < queue.length ? String(end) : undefined;
          return route.fulfill({ json: { items: queue.slice(start, end), cursor } });
        },
      );
    };

    // Act
    const carol = await signIn('carol', standIn);
    const status = await carol.locator('.queue-status').textContent();
    const shown = await carol
      .locator('.queue-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));
    await carol.context().close();

    // Assess
    expect(status).toBe('More than 2000 documents waiting: showing the first 2000, most urgent first');
    expect(shown).toEqual(queue.slice(0, 2000).map((r) => r.id));
  });

  it('shows the comparison with the reference beside the fields of a compared document', async () => {
    // Prepare: the document alice approved was compared when it completed.
    const report = (
      await stack.api(await stack.token('x', 'reviewer', 'acme'), 'GET', `/reviews/${approved}`)
    ).body.comparison as { preview: boolean; summary: { status: string } };

    // Act
    await alice.goto(`${stack.endpoints.console}#/review/${approved}`);
    const panel = alice.locator('.side .comparison');
    await panel.waitFor();

    // Assess
    expect(report).toMatchObject({ preview: false, summary: { status: expect.any(String) } });
    expect(await panel.locator('h2').textContent()).toMatch(
      /^Compared with (the previous contract of these parties|the contract it bills)$/,
    );
    expect(await panel.getAttribute('class')).toContain(`status-${report.summary.status}`);
  });

  it('has every screenshot the README shows in the repository (DOCKET_SCREENSHOTS=1 remakes them)', async () => {
    // Prepare
    const readme = await readFile(join(process.cwd(), 'README.md'), 'utf8');

    // Act
    const shown = [...readme.matchAll(/\]\((docs\/screenshots\/[^)]+\.png)\)/g)].map((m) => m[1] as string);

    // Assess
    expect(shown).toEqual(['docs/screenshots/queue.png', 'docs/screenshots/review.png']);
    expect(shown.filter((path) => !existsSync(join(process.cwd(), path)))).toEqual([]);
  });

  it('asks nothing of any host but this machine through the whole flow (no CDN at run time)', () => {
    // Prepare: what the pages of every test above asked for. A console that never loaded would
    // pass vacuously, so the recording must hold the bundle, the PDF worker and the API.
    const urls = [...requested];
    const local = /^(?:https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?\/|data:|blob:)/;

    // Act
    const offenders = urls.filter((url) => !local.test(url));

    // Assess
    expect(urls.some((url) => /\/app\.js$/.test(url))).toBe(true);
    expect(urls.some((url) => /pdf\.worker/.test(url))).toBe(true);
    expect(urls.some((url) => /\/reviews\/[^/?]+$/.test(url))).toBe(true);
    expect(offenders, `requests off this machine:\n${offenders.join('\n')}`).toEqual([]);
  });
});
