import { buildConsole } from '../console/build.js';

/**
 * Builds the review console once, before any test file runs: the console test serves it, and
 * `docket start` (test/cli) builds it itself when console/dist is missing, as on a fresh clone.
 * Two files building at once would delete each other's bundle mid-test.
 */
export default async function setup(): Promise<void> {
  await buildConsole();
}
