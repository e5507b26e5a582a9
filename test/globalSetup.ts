import { buildConsole } from '../console/build.js';
import { buildBundle, freshBundle } from '../scripts/cliBundle.mjs';

/**
 * Builds the review console and the docket CLI bundle once, before any test file runs: the
 * console test serves the console, and `docket start` (test/cli) builds it itself when
 * console/dist is missing, as on a fresh clone. Two files building at once would delete each
 * other's console bundle mid-test; the CLI bundle is built here so that the tests which run
 * bin/docket.js do not each pay for building it.
 */
export default async function setup(): Promise<void> {
  await buildConsole();
  if (!freshBundle()) await buildBundle();
}
