import type { Browser } from 'playwright-core';
import { importCorpusProviders } from '../../support/e2e.js';
import { type LocalStack, startLocalStack } from '../../support/localStackProcess.js';
import { reviewHelpers } from '../../support/reviewHelpers.js';
import { launchChromium } from './consoleBrowser.js';

/** What a browser test of the console runs against: a stack, its reviews, Debian's chromium. */
export interface ConsoleStack {
  stack: LocalStack;
  browser: Browser;
  /** The reviews waiting, in upload order: the contract, then the invoice (tests may add more). */
  docs: { id: string; key: string }[];
  close: () => Promise<void>;
}

/**
 * A local stack with the corpus providers and two reviews waiting (a contract and an invoice
 * uploaded as `files.contract` and `files.invoice`), and a browser to open the console in.
 */
export const startConsoleStack = async (files: {
  contract: string;
  invoice: string;
}): Promise<ConsoleStack> => {
  const stack = await startLocalStack();
  await importCorpusProviders(stack);
  const { inReview } = reviewHelpers(() => stack);
  const docs = [
    await inReview('contract-0006', files.contract),
    await inReview('invoice-0007', files.invoice),
  ];
  const browser = await launchChromium();
  return {
    stack,
    browser,
    docs,
    close: async () => {
      await browser.close();
      await stack.stop();
      await stack.remove();
    },
  };
};
