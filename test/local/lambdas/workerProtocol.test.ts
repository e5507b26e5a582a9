import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  contextFields,
  contextFrom,
  reviveError,
  serializeError,
} from '../../../local/lambdas/workerProtocol.js';

class ThrottledError extends Error {
  override readonly name = 'Throttled';
  readonly retryable = true;
  readonly statusCode = 429;
}

describe('the function worker protocol', () => {
  it('carries an error across threads with its name, message, stack and plain fields', () => {
    // Prepare
    const thrown = new ThrottledError('slow down');

    // Act: through JSON, as the message would carry it.
    const revived = reviveError(JSON.parse(JSON.stringify(serializeError(thrown))));

    // Assess
    expect(revived).toBeInstanceOf(Error);
    expect(revived.name).toBe('Throttled');
    expect(revived.message).toBe('slow down');
    expect(revived.stack).toBe(thrown.stack);
    expect(revived).toMatchObject({ retryable: true, statusCode: 429 });
  });

  it('turns a thrown non-Error into an Error, and drops fields JSON cannot hold', () => {
    // Prepare
    const cyclic = new Error('loop') as Error & { self?: unknown };
    cyclic.self = cyclic;

    // Act
    const fromString = reviveError(serializeError('plain text'));
    const fromCycle = reviveError(serializeError(cyclic));

    // Assess
    expect([fromString.name, fromString.message]).toEqual(['Error', 'plain text']);
    expect([fromCycle.name, fromCycle.message]).toEqual(['Error', 'loop']);
    expect(fromCycle).not.toHaveProperty('self');
  });

  it('rebuilds a context that counts down from the time left when it was sent', () => {
    // Prepare
    const sent = {
      functionName: 'docket-parse',
      functionVersion: '$LATEST',
      invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:docket-parse',
      memoryLimitInMB: '1536',
      awsRequestId: 'req-1',
      logGroupName: '/aws/lambda/docket-parse',
      logStreamName: 'local',
      getRemainingTimeInMillis: () => 30_000,
    } as Context;

    // Act
    const fields = contextFields(sent);
    const rebuilt = contextFrom(fields);

    // Assess
    expect(fields.remainingMs).toBe(30_000);
    expect(rebuilt).toMatchObject({
      functionName: 'docket-parse',
      awsRequestId: 'req-1',
      memoryLimitInMB: '1536',
    });
    expect(rebuilt.getRemainingTimeInMillis()).toBeLessThanOrEqual(30_000);
    expect(rebuilt.getRemainingTimeInMillis()).toBeGreaterThan(0);
    expect(() => rebuilt.succeed('x')).toThrow(/return a promise/);
  });
});
