/**
 * A local Step Functions process for the restart test to kill: on the data directory given as
 * argument it completes one execution, leaves a second waiting for review, prints their ARNs
 * and the review token as one JSON line, and keeps serving until it is killed.
 */
import { startSfnFixture } from './sfnFixture.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: sfnChild.ts <dataDir>');

const fx = await startSfnFixture({ dataDir, policy: { reviewTimeoutSeconds: 3600, reviewMaxSeconds: 7200 } });
const start = async () => {
  const executionArn = fx.service.startExecution({
    stateMachineArn: fx.stateMachineArn,
    input: '{}',
  }).executionArn;
  if (!executionArn) throw new Error('no executionArn');
  return executionArn;
};
const done = await start();
await fx.service.waitForExecution(done, { timeoutMs: 10_000 });
fx.stages.reviewRequired = true;
const waiting = await start();
const token = await fx.stages.reviewToken(waiting);
// The token reaches request-review before its invocation returns; report once the task waits
// (TaskSubmitted recorded) and a later turn of the event loop has written it to disk.
const submitted = () =>
  (fx.service.getExecutionHistory({ executionArn: waiting }).events ?? []).some(
    (e) => e.type === 'TaskSubmitted',
  );
while (!submitted()) await new Promise((resolve) => setTimeout(resolve, 10));
await new Promise((resolve) => setTimeout(resolve, 20));
process.stdout.write(`${JSON.stringify({ done, waiting, token, endpoint: fx.server.endpoint })}\n`);
