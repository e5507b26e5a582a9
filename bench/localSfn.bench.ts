/**
 * How the local Step Functions copes with a burst: N executions of the real Docket definition
 * started at once through the HTTP endpoint (as handler code and `docket upload` would), with
 * history persisted to a temporary dataDir. Prints start and completion times, memory and the
 * history size; a second round sends every execution to review and approves all the tokens.
 *
 *   npx tsx bench/localSfn.bench.ts [executions=1000]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendTaskSuccessCommand, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { startSfnFixture } from '../test/local/sfn/support/sfnFixture.js';

const count = Number(process.argv[2] ?? 1000);
const dataDir = mkdtempSync(join(tmpdir(), 'docket-sfn-bench-'));
const fx = await startSfnFixture({ dataDir, policy: { reviewTimeoutSeconds: 3600, reviewMaxSeconds: 7200 } });
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (from: number) => `${(performance.now() - from).toFixed(0)} ms`;

const burst = async (label: string, review: boolean) => {
  fx.stages.reviewRequired = review;
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const arns = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const { executionArn } = await fx.client.send(
        new StartExecutionCommand({
          stateMachineArn: fx.stateMachineArn,
          input: JSON.stringify({ n: i, label }),
        }),
      );
      return executionArn as string;
    }),
  );
  const started = ms(t0);
  if (review) {
    const tokens = await Promise.all(arns.map((arn) => fx.stages.reviewToken(arn)));
    console.log(`  ${label}: ${count} reviews waiting after ${ms(t0)}`);
    await Promise.all(
      tokens.map((taskToken) =>
        fx.client.send(new SendTaskSuccessCommand({ taskToken, output: '{"decision":"approve"}' })),
      ),
    );
  }
  const results = await Promise.all(
    arns.map((arn) => fx.service.waitForExecution(arn, { timeoutMs: 300_000 })),
  );
  const succeeded = results.filter((r) => r.status === 'SUCCEEDED').length;
  console.log(
    `  ${label}: ${count} started in ${started}, all closed after ${ms(t0)}; SUCCEEDED ${succeeded}/${count}`,
  );
  console.log(
    `  ${label}: heap +${mb(process.memoryUsage().heapUsed - heapBefore)}, rss ${mb(process.memoryUsage().rss)}`,
  );
};

console.log(`local Step Functions burst, ${count} executions, Node ${process.version}`);
await burst('auto-approved', false);
await burst('reviewed', true);
const events = fx.service
  .listExecutions({ stateMachineArn: fx.stateMachineArn, maxResults: 1000 })
  .executions?.slice(0, 1)
  .map(
    (e) => fx.service.getExecutionHistory({ executionArn: e.executionArn, maxResults: 1000 }).events?.length,
  );
await fx.close();
console.log(
  `  history on disk (journal, compacted segments and index): ${mb(readdirSync(dataDir).reduce((sum, name) => sum + statSync(join(dataDir, name)).size, 0))} for ${2 * count} executions (${events} events each for a reviewed one)`,
);
const reopen = performance.now();
const again = await startSfnFixture({ dataDir });
console.log(`  reopen (closed executions compacted, none replayed): ${ms(reopen)}`);
await again.close();
rmSync(dataDir, { recursive: true, force: true });
