import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createDocumentClient, createS3Client, createSfnClient } from '../../lambdas/shared/clients.js';
import type { Role } from '../../lambdas/shared/principal.js';
import { WorkflowStore } from '../../lambdas/shared/store/index.js';
import { loadSigningKey, mintToken } from '../../local/auth/localTokens.js';
import type { Endpoints } from '../../local/endpoints.js';
import { LOCAL_CREDENTIALS } from './localDynamo.js';

/** Options of a local stack started for a test. */
export interface StackOptions {
  dataDir?: string;
  /** DOCKET_* overrides (review timeout, faults, time scale...). */
  env?: Record<string, string>;
}

const ENTRY = ['--import', 'tsx', 'local/main.ts'];

/**
 * Test clients of a running local stack (in a child process or in this one): the workflow store,
 * S3 and Step Functions clients on its endpoints, reviewer tokens signed with its key, and a
 * review API caller.
 */
export const connectToStack = async (endpoints: Endpoints, dataDir: string) => {
  const config = { region: endpoints.region, credentials: LOCAL_CREDENTIALS };
  const documentClient = createDocumentClient({ ...config, endpoint: endpoints.dynamodb });
  const store = new WorkflowStore({ client: documentClient, tables: endpoints.tables });
  const s3 = createS3Client({ ...config, endpoint: endpoints.s3 });
  const sfn = createSfnClient({ ...config, endpoint: endpoints.sfn });
  const key = await loadSigningKey(join(dataDir, 'jwt.key'));
  return {
    dataDir,
    endpoints,
    documentClient,
    store,
    s3,
    sfn,
    token: (user: string, role: Role, tenant: string, groups?: readonly string[]) =>
      mintToken(key, { user, role, tenant, ...(groups && { groups }) }),
    /** Calls the review API with a bearer token. */
    api: async (token: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${endpoints.api}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    },
    /** Releases the clients' connections. */
    destroy: () => {
      documentClient.destroy();
      s3.destroy();
      sfn.destroy();
    },
  };
};

/** What a test needs of a running local stack, wherever it runs. */
export type StackClients = Awaited<ReturnType<typeof connectToStack>>;

/**
 * Starts `npm start`'s entry in a child process on free ports (so it can be `kill -9`ed like a
 * real one) and gives the test clients pointed at it.
 */
export const startLocalStack = async (options: StackOptions = {}) => {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'docket-e2e-')));
  const child: ChildProcess = spawn(
    process.execPath,
    [...ENTRY, '--data-dir', dataDir, '--ports', 'auto', '--json'],
    {
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-8000);
  });
  const endpoints = await new Promise<Endpoints>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => resolve(JSON.parse(line) as Endpoints));
    child.once('exit', (code) =>
      reject(new Error(`the local stack exited (${code}) before it was ready:\n${stderr}`)),
    );
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const clients = await connectToStack(endpoints, dataDir);
  return {
    ...clients,
    pid: child.pid as number,
    stderr: () => stderr,
    /** Ctrl-C: a clean stop. */
    stop: async () => {
      clients.destroy();
      child.kill('SIGINT');
      await exited;
    },
    /** `kill -9`: nothing gets to flush. */
    kill: async () => {
      clients.destroy();
      child.kill('SIGKILL');
      await exited;
    },
    /** Removes the data directory (call after stop). */
    remove: () => rm(dataDir, { recursive: true, force: true }),
  };
};

/** A started local stack. */
export type LocalStack = Awaited<ReturnType<typeof startLocalStack>>;
