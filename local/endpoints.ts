import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the running local stack listens: written to `<data-dir>/endpoints.json`. */
export interface Endpoints {
  s3: string;
  dynamodb: string;
  sfn: string;
  sqs: string;
  /** The local EventBridge (PutEvents), the bus completion events go to, and its JSONL sink. */
  events: string;
  eventBus: string;
  eventSink: string;
  /** The upload queue and its dead-letter queue, as on AWS. */
  queues: { uploads: string; deadLetters: string };
  api: string;
  console: string;
  bucket: string;
  tables: { workflows: string; transitions: string; providers: string };
  stateMachineArn: string;
  /** The reprocess state machine (`docket reprocess`); absent in a file from before it existed. */
  reprocessStateMachineArn?: string;
  region: string;
  /** Process id of the runtime, so a client can tell a stale file from a live stack. */
  pid: number;
}

/** The file the CLI and other clients read to find the local stack. */
export const endpointsFile = (dataDir: string): string => join(dataDir, 'endpoints.json');

/** Writes the endpoints atomically (a reader never sees half a file). */
export const writeEndpoints = async (dataDir: string, endpoints: Endpoints): Promise<void> => {
  const file = endpointsFile(dataDir);
  await writeFile(`${file}.tmp`, `${JSON.stringify(endpoints, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
};

/** Reads the endpoints of a local stack, or undefined when none was ever started there. */
export const readEndpoints = async (dataDir: string): Promise<Endpoints | undefined> => {
  try {
    return JSON.parse(await readFile(endpointsFile(dataDir), 'utf8')) as Endpoints;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};
