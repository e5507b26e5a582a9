import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../infra/config.js';
import { createDocketApp } from '../../infra/docketApp.js';
import { InvalidContextError } from '../../infra/errors.js';
import { CDK_JSON_CONTEXT } from './support/synthDocket.js';

const from = (context: Record<string, unknown>) => (key: string) => context[key];
const issuesOf = (context: Record<string, unknown>): string[] => {
  try {
    loadConfig(from(context), {}, Object.keys(context));
  } catch (error) {
    if (error instanceof InvalidContextError) return [...error.issues];
    throw error;
  }
  throw new Error('expected InvalidContextError');
};

describe('loadConfig', () => {
  it('fills the documented defaults and leaves the stack environment-agnostic', () => {
    // Act
    const config = loadConfig(from({}));
    // Assess
    expect(config).toMatchObject({
      stackName: 'Docket',
      env: {},
      policy: {
        reviewTimeoutSeconds: 86_400,
        maxRetries: 3,
        backoffBaseSeconds: 10,
        confidenceThreshold: 80,
      },
      extractor: { kind: 'heuristic' },
      parse: { maxPdfBytes: 25 * 1024 * 1024, maxPdfPages: 500 },
      logRetentionDays: 30,
      retainData: true,
      claimTtlSeconds: 900,
    });
    expect(config.parse.reservedConcurrency).toBeUndefined();
  });

  it('accepts the cdk.json context as is', () => {
    // Prepare: inputs inline; Act and Assess below.
    expect(
      loadConfig(from(CDK_JSON_CONTEXT), {}, Object.keys(CDK_JSON_CONTEXT)).policy.reviewTimeoutSeconds,
    ).toBe(86_400);
  });

  it('reads `-c key=value` strings as numbers and booleans', () => {
    // Act
    const config = loadConfig(
      from({ reviewTimeout: '3600', threshold: '72.5', retainData: 'false', parseReservedConcurrency: '4' }),
    );
    // Assess
    expect(config.policy.reviewTimeoutSeconds).toBe(3_600);
    expect(config.policy.confidenceThreshold).toBe(72.5);
    expect(config.retainData).toBe(false);
    expect(config.parse.reservedConcurrency).toBe(4);
  });

  it('takes account and region from context first, then from CDK_DEFAULT_*', () => {
    // Prepare: inputs inline; Act and Assess below.
    const env = { CDK_DEFAULT_ACCOUNT: '111111111111', CDK_DEFAULT_REGION: 'eu-west-1' };
    expect(loadConfig(from({}), env).env).toEqual({ account: '111111111111', region: 'eu-west-1' });
    expect(loadConfig(from({ region: 'us-east-2' }), env).env).toEqual({
      account: '111111111111',
      region: 'us-east-2',
    });
  });

  it('names the context key of every bad value, policy keys included', () => {
    // Act
    const issues = issuesOf({
      reviewTimeout: 0,
      extractor: 'gpt',
      maxPdfPages: 'many',
      logRetentionDays: 31,
    });
    // Assess
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^extractor: /),
        expect.stringMatching(/^maxPdfPages: /),
        expect.stringMatching(/^logRetentionDays: one of 1, 3, 5/),
      ]),
    );
    // Policy ranges are checked after the types, in a second pass.
    expect(issuesOf({ reviewTimeout: 0 })).toEqual([expect.stringMatching(/^reviewTimeout: /)]);
  });

  it('takes the review claim length from claimTtl, from 10 s to a day', () => {
    // Act
    const config = loadConfig(from({ claimTtl: '1800' }));
    // Assess
    expect(config.claimTtlSeconds).toBe(1_800);
    expect(issuesOf({ claimTtl: 5 })).toEqual([expect.stringMatching(/^claimTtl: /)]);
    expect(issuesOf({ claimTtl: 86_401 })).toEqual([expect.stringMatching(/^claimTtl: /)]);
  });

  it('refuses a review cap below the heartbeat, naming reviewCap', () => {
    // Prepare: inputs inline; Act and Assess below.
    expect(issuesOf({ reviewTimeout: 7200, reviewCap: 3600 })).toEqual([
      expect.stringMatching(/^reviewCap: reviewMaxSeconds must be greater/),
    ]);
  });

  it('requires a model id with the Bedrock extractor and grants nothing without one', () => {
    // Act
    const issues = issuesOf({ extractor: 'bedrock' });
    const config = loadConfig(
      from({ extractor: 'bedrock', bedrockModelId: 'anthropic.claude-3-haiku-20240307-v1:0' }),
    );
    // Assess
    expect(issues).toEqual([expect.stringMatching(/^bedrockModelId: required when extractor is bedrock/)]);
    expect(config.extractor).toEqual({ kind: 'bedrock', modelId: 'anthropic.claude-3-haiku-20240307-v1:0' });
  });

  it('keeps the parse bounds inside the function: memory and time', () => {
    // Prepare: inputs inline; Act and Assess below.
    expect(issuesOf({ parseMemoryMb: 1024, parseFunctionMemoryMb: 1024 })).toEqual([
      expect.stringMatching(/^parseFunctionMemoryMb: must be at least parseMemoryMb \+ 256/),
    ]);
    expect(issuesOf({ stageTimeout: 30, parseTimeoutMs: 60_000 })).toEqual([
      expect.stringMatching(/^parseTimeoutMs: must be below stageTimeout/),
    ]);
  });

  it('reads console origins from a comma-separated -c string and refuses one with a path', () => {
    // Act
    const config = loadConfig(from({ consoleOrigins: 'https://review.example.com, http://localhost:5173' }));
    const issues = issuesOf({ consoleOrigins: 'https://review.example.com/app' });
    // Assess
    expect(config.consoleOrigins).toEqual(['https://review.example.com', 'http://localhost:5173']);
    expect(loadConfig(from({})).consoleOrigins).toEqual([]);
    expect(issues).toEqual([expect.stringMatching(/^consoleOrigins\.0: an origin such as/)]);
  });

  it("refuses a key that is no Docket setting, naming the closest one, and lets the CDK's own keys by", () => {
    // Prepare: what the CLI and cdk.json put in the context besides Docket's keys.
    const cdkOwn = {
      ...CDK_JSON_CONTEXT,
      'acknowledged-issue-numbers': [32775],
      'cdk-migrate': true,
      'aws:cdk:bundling-stacks': ['**'],
      '@aws-cdk/core:failSynthOnValidationErrors': false,
      'availability-zones:account=111111111111:region=eu-west-1': ['eu-west-1a'],
    };
    // Act
    const issues = issuesOf({
      ...cdkOwn,
      reviewTimout: 3600,
      logRetention: 7,
      frobnicate: 1,
      threshold: 101,
    });
    // Assess
    expect(loadConfig(from(cdkOwn), {}, Object.keys(cdkOwn)).stackName).toBe('Docket');
    expect(issues).toEqual([
      'reviewTimout: not a Docket context key; did you mean reviewTimeout?',
      'logRetention: not a Docket context key; did you mean logRetentionDays?',
      expect.stringMatching(/^frobnicate: not a Docket context key; the closest Docket key is \w+$/),
      expect.stringMatching(/^threshold: /),
    ]);
  });

  it('checks every key the app sees in its context, -c values included', () => {
    // Act
    const build = () =>
      createDocketApp({ context: { ...CDK_JSON_CONTEXT, stackname: 'Other' } }, { env: {} });
    // Assess
    expect(build).toThrow(/stackname: not a Docket context key; did you mean stackName\?/);
  });

  it('throws a permanent, named error whose message says how to fix it', () => {
    // Prepare: inputs inline; Act and Assess below.
    expect(() => loadConfig(from({ threshold: 101 }))).toThrow(
      expect.objectContaining({
        name: 'InvalidContext',
        retryable: false,
        message: expect.stringContaining('npx cdk synth -c key=value'),
      }),
    );
  });
});
