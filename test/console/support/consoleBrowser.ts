import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it); never a browser a tool downloads. */
export const CHROMIUM = '/usr/bin/chromium';

/** Where the browser tests put their screenshots for a person to look at (git-ignored). */
export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'console');

/**
 * Where the README's screenshots live. The browser test writes them only when asked
 * (`DOCKET_SCREENSHOTS=1 npx vitest run test/console/reviewConsole.test.ts`): every run has new
 * workflow ids, due times and claim times on screen, so writing them on every run would change
 * committed files each time; asked for, they are the console as it is, made by the same test.
 */
export const README_SHOTS = join(process.cwd(), 'docs', 'screenshots');

/** The directory a named screenshot goes to: the README's when asked for, else the artifacts. */
export const screenshotDir = async (forReadme = false): Promise<string> => {
  const dir = forReadme && process.env.DOCKET_SCREENSHOTS ? README_SHOTS : ARTIFACTS;
  await mkdir(dir, { recursive: true });
  return dir;
};

/** Starts Debian's chromium headless, or says how to install it. */
export const launchChromium = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
};

/** A page in a fresh context: 1280x800, one locale and time zone, so times read the same everywhere. */
export const newConsolePage = async (browser: Browser): Promise<Page> => {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  return context.newPage();
};

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** One accessibility rule a page breaks, where, and how much it matters (axe-core's words). */
export interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * The serious and critical accessibility violations axe-core finds on the page as it is now
 * (WCAG 2 A and AA rules, and axe's best practices). axe is injected from node_modules: nothing
 * is fetched.
 */
export const seriousViolations = async (page: Page): Promise<Violation[]> => {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    type Result = {
      violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
    };
    const scope = globalThis as unknown as {
      axe: { run: (context: unknown, options: object) => Promise<Result> };
      document: unknown;
    };
    const result = await scope.axe.run(scope.document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }));
  });
};
