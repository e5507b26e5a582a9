import { describe, expect, it } from 'vitest';
import { PermanentError, TransientError } from '../../../lambdas/shared/errors.js';
import { definitionFixture } from './support/definitionFixture.js';
import { enteredStates } from './support/sfnFixture.js';

class TextStoreUnavailable extends TransientError {
  override readonly name = 'TextStoreUnavailable';
}

class NotAPdf extends PermanentError {
  override readonly name = 'NotAPdf';
}

/** Lambda service fault as AWS names it: retried in place by the definition's serviceRetry. */
class LambdaServiceException extends Error {
  override readonly name = 'Lambda.ServiceException';
}

describe('the real Docket definition on the local Step Functions: a document through its stages', () => {
  const { fx, start, history, finished, elapse } = definitionFixture();

  it('runs an upload to Completed, giving Ingest the execution ARN through $$.Execution.Id', async () => {
    // Prepare
    const input = { detail: { bucket: { name: 'docs' }, object: { key: 'incoming/acme/a.pdf' } } };

    // Act
    const executionArn = await start(input);
    const result = await finished(executionArn);
    const events = await history(executionArn);

    // Assess
    expect(result.status).toBe('SUCCEEDED');
    expect(JSON.parse(result.output ?? '{}')).toMatchObject({
      duplicate: false,
      result: { state: 'completed' },
    });
    expect(fx.stages.calls('ingest').at(-1)).toEqual({ event: input, executionArn });
    expect(enteredStates(events)).toEqual([
      'Start',
      'Ingest',
      'AfterIngest',
      'Parse',
      'AfterParse',
      'Extract',
      'Validate',
      'ValidationOutcome',
      'Compare',
      'Completed',
    ]);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
    expect(events.every((e, i) => e.previousEventId === i)).toBe(true);
    expect(events[0]).toMatchObject({
      type: 'ExecutionStarted',
      executionStartedEventDetails: { input: JSON.stringify(input) },
    });
    expect(events.at(-1)?.type).toBe('ExecutionSucceeded');
    expect(events.filter((e) => e.type === 'LambdaFunctionSucceeded')).toHaveLength(5);
  });

  it('sends a named stage error through MarkFailed, a scaled backoff and the retry router back to that stage', async () => {
    // Prepare
    fx.stages.failures.set('parse', [
      new TextStoreUnavailable('The text bucket did not answer; retry later.'),
    ]);

    // Act: the first retry's 10 s backoff, at the 0.001 test time scale, is 10 ms of the clock.
    const executionArn = await start();
    await elapse(10);
    const result = await finished(executionArn);
    const events = await history(executionArn);

    // Assess
    expect(result.status).toBe('SUCCEEDED');
    expect(enteredStates(events).slice(3, 11)).toEqual([
      'Parse',
      'MarkFailed',
      'Recover',
      'BackoffWait',
      'RetryRouter',
      'Parse',
      'AfterParse',
      'Extract',
    ]);
    const failed = events.find((e) => e.type === 'LambdaFunctionFailed')?.lambdaFunctionFailedEventDetails;
    expect(failed?.error).toBe('TextStoreUnavailable');
    const markFailedInput = fx.stages.calls('mark-failed', executionArn).at(-1) as {
      error: { Error: string; Cause: string };
    };
    expect(markFailedInput.error.Error).toBe('TextStoreUnavailable');
    const cause = JSON.parse(markFailedInput.error.Cause);
    expect(cause).toMatchObject({
      errorType: 'TextStoreUnavailable',
      errorMessage: 'The text bucket did not answer; retry later.',
    });
    expect(cause.trace[0]).toBe('TextStoreUnavailable: The text bucket did not answer; retry later.');
    // The 10 s backoff of the first retry runs at the test time scale: 10 ms, not 10 s.
    const waitEntered = events.find((e) => e.type === 'WaitStateEntered');
    const waitExited = events.find((e) => e.type === 'WaitStateExited');
    expect(JSON.parse(waitEntered?.stateEnteredEventDetails?.input ?? '{}').recovery).toEqual({
      decision: 'retry',
      resumeAt: 'parsing_pdf',
      waitSeconds: 10,
    });
    const waited = (waitExited?.timestamp?.getTime() ?? 0) - (waitEntered?.timestamp?.getTime() ?? 0);
    expect(waited).toBe(10);
  });

  it('resumes a workflow at its stage from {workflowId, resumeAt}, as the runtime does after a restart', async () => {
    // Prepare: a workflow a previous process left in validating.
    const first = await start();
    await finished(first);
    const [workflowId, workflow] =
      [...fx.stages.workflows.entries()].find(([, wf]) => wf.executionArn === first) ?? [];
    if (!workflowId || !workflow) throw new Error('the first execution ingested nothing');
    workflow.state = 'validating';

    // Act
    const resumed = await start({ workflowId, resumeAt: 'validating' });
    const result = await finished(resumed);

    // Assess
    expect(result.status).toBe('SUCCEEDED');
    expect(enteredStates(await history(resumed))).toEqual([
      'Start',
      'Resume',
      'Validate',
      'ValidationOutcome',
      'Compare',
      'Completed',
    ]);
  });

  it('retries a Lambda service fault in place without a workflow retry', async () => {
    // Prepare
    fx.stages.failures.set('extract', [new LambdaServiceException('Rate exceeded')]);

    // Act
    const executionArn = await start();
    const result = await finished(executionArn);
    const events = await history(executionArn);

    // Assess
    expect(result.status).toBe('SUCCEEDED');
    expect(enteredStates(events)).not.toContain('MarkFailed');
    expect(events.filter((e) => e.type === 'LambdaFunctionFailed')).toHaveLength(1);
    expect(fx.stages.calls('extract', executionArn)).toHaveLength(2);
  });

  it('rejects a permanent error at once and fails the execution with Docket.ProcessingFailed', async () => {
    // Prepare
    fx.stages.permanentErrors.add('NotAPdf');
    fx.stages.failures.set('parse', [new NotAPdf('The upload is not a PDF; upload the PDF itself.')]);

    // Act
    const executionArn = await start();
    const result = await finished(executionArn);

    // Assess
    expect(result.status).toBe('FAILED');
    expect(result.error).toBe('Docket.ProcessingFailed');
    expect(enteredStates(await history(executionArn)).slice(-4)).toEqual([
      'MarkFailed',
      'Recover',
      'MarkRejected',
      'ProcessingFailed',
    ]);
  });
});
