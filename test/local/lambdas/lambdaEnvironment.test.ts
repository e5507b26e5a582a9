import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { lambdaEnvironment } from '../../../local/lambdas/lambdaEnvironment.js';

const run = promisify(execFile);

/** The async-hook namespaces a fresh Node process holds after loading Powertools' Tracer with `env`. */
const namespacesAfterTracerLoads = async (env: Record<string, string>) => {
  const script =
    "await import('@aws-lambda-powertools/tracer');" +
    'process.stdout.write(JSON.stringify(Object.keys(process.namespaces ?? {})));';
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  return JSON.parse(stdout) as string[];
};

const services = {
  region: 'us-east-1',
  endpoints: { dynamodb: 'http://127.0.0.1:1', s3: 'http://127.0.0.1:2' },
  tables: { workflows: 'w', transitions: 't', providers: 'p' },
  bucket: 'b',
};

describe('the local Lambda environment', () => {
  it('keeps the X-Ray SDK from hooking every promise, where no trace is sent (control: without it, it does)', async () => {
    // Prepare
    const local = lambdaEnvironment(services);
    const { AWS_XRAY_MANUAL_MODE: _, ...withoutManualMode } = local;

    // Act
    const hooked = await namespacesAfterTracerLoads(withoutManualMode);
    const unhooked = await namespacesAfterTracerLoads(local);

    // Assess
    expect(local.POWERTOOLS_TRACE_ENABLED).toBe('false');
    expect(hooked).toEqual(['AWSXRay']);
    expect(unhooked).toEqual([]);
  });
});
