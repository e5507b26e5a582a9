import { S3Client } from '@aws-sdk/client-s3';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { TableSpec } from '../../lambdas/shared/store/index.js';

/** Billable request units and S3 requests seen since the last reset. */
export interface MeterReading {
  /** Write request units on tables (DynamoDB's own figure: the larger of the item before and after, per KB). */
  tableWriteUnits: number;
  /** Write request units on GSIs, computed with DynamoDB's rules from the item before and after. */
  indexWriteUnits: number;
  readUnits: number;
  writeRequests: number;
  s3Writes: number;
  s3Reads: number;
  byOperation: Record<string, number>;
}

const KB = 1024;
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');
/** DynamoDB's item size: names plus values (numbers ~1 byte per 2 digits, +1; lists/maps 3 + 1 per element). */
const valueSize = (v: unknown): number => {
  if (v === null || v === undefined || typeof v === 'boolean') return 1;
  if (typeof v === 'string') return utf8(v);
  if (typeof v === 'number' || typeof v === 'bigint')
    return Math.ceil(String(v).replace(/[-.]/g, '').length / 2) + 1;
  if (v instanceof Uint8Array) return v.byteLength;
  if (v instanceof Set) return [...v].reduce((n: number, x) => n + valueSize(x), 0);
  if (Array.isArray(v)) return 3 + v.reduce((n: number, x) => n + 1 + valueSize(x), 0);
  return 3 + Object.entries(v as object).reduce((n, [k, x]) => n + 1 + utf8(k) + valueSize(x), 0);
};
/** DynamoDB's size of an item, in bytes. */
export const itemSize = (item: Record<string, unknown>): number =>
  Object.entries(item).reduce((n, [k, v]) => n + utf8(k) + valueSize(v), 0);

/**
 * GSI write units of one table write under DynamoDB's rules (ALL projection; an index entry carries
 * ~100 bytes of overhead): a new entry is a put, a removed one a delete, a changed key both.
 */
export const indexWriteUnits = (
  spec: TableSpec,
  before?: Record<string, unknown>,
  after?: Record<string, unknown>,
) => {
  let units = 0;
  for (const index of spec.indexes) {
    const keys = [index.partitionKey.name, ...(index.sortKey ? [index.sortKey.name] : [])];
    const inIndex = (item?: Record<string, unknown>) => !!item && keys.every((k) => item[k] !== undefined);
    const entry = (item: Record<string, unknown>) => Math.ceil((itemSize(item) + 100) / KB);
    const was = inIndex(before) ? (before as Record<string, unknown>) : undefined;
    const now = inIndex(after) ? (after as Record<string, unknown>) : undefined;
    if (was && now) {
      const keyChanged = keys.some((k) => was[k] !== now[k]);
      if (keyChanged) units += entry(was) + entry(now);
      else if (JSON.stringify(was) !== JSON.stringify(now)) units += entry(now);
    } else if (was) units += entry(was);
    else if (now) units += entry(now);
  }
  return units;
};

type Send = (this: unknown, command: unknown, ...rest: unknown[]) => Promise<unknown>;

/**
 * Meters every DynamoDB document-client and S3 call made in this process (the in-process stage
 * handlers build their own clients, so the meter patches the client classes' `send`): it asks
 * dynalite for consumed capacity, reads the workflow item before and after each write to price the
 * GSI updates, and counts S3 requests by kind. The calls themselves are unchanged.
 */
export const installAwsMeter = (tables: { name: string; spec: TableSpec }[]) => {
  const specOf = new Map(tables.map((t) => [t.name, t.spec]));
  const docSend = DynamoDBDocumentClient.prototype.send as unknown as Send;
  const s3Send = S3Client.prototype.send as unknown as Send;
  let reading: MeterReading;
  const reset = () => {
    reading = {
      tableWriteUnits: 0,
      indexWriteUnits: 0,
      readUnits: 0,
      writeRequests: 0,
      s3Writes: 0,
      s3Reads: 0,
      byOperation: {},
    };
  };
  reset();

  const keyOf = (spec: TableSpec, item: Record<string, unknown>) =>
    Object.fromEntries(
      [spec.partitionKey, ...(spec.sortKey ? [spec.sortKey] : [])].map((k) => [k.name, item[k.name]]),
    );

  (DynamoDBDocumentClient.prototype as unknown as { send: Send }).send = async function (command, ...rest) {
    const client = this as DynamoDBDocumentClient;
    const input = (command as { input: Record<string, unknown> }).input;
    const op = (command as object).constructor.name.replace(/Command$/, '');
    const isWrite =
      command instanceof PutCommand || command instanceof UpdateCommand || command instanceof DeleteCommand;
    const isRead =
      command instanceof GetCommand || command instanceof QueryCommand || command instanceof ScanCommand;
    const spec = specOf.get(String(input.TableName));
    if (!spec || !(isWrite || isRead)) return docSend.call(this, command, ...rest);

    const key = isWrite ? keyOf(spec, (input.Item ?? input.Key) as Record<string, unknown>) : undefined;
    const read = async () =>
      key && spec.indexes.length > 0
        ? (
            (await docSend.call(
              client,
              new GetCommand({ TableName: String(input.TableName), Key: key, ConsistentRead: true }),
            )) as {
              Item?: Record<string, unknown>;
            }
          ).Item
        : undefined;
    const before = await read();
    input.ReturnConsumedCapacity = 'TOTAL';
    const output = (await docSend.call(this, command, ...rest)) as {
      ConsumedCapacity?: { CapacityUnits?: number };
    };
    const units = output.ConsumedCapacity?.CapacityUnits ?? 0;
    reading.byOperation[op] = (reading.byOperation[op] ?? 0) + 1;
    if (isWrite) {
      reading.writeRequests += 1;
      reading.tableWriteUnits += units;
      reading.indexWriteUnits += indexWriteUnits(spec, before, await read());
    } else {
      reading.readUnits += units;
    }
    return output;
  };
  (S3Client.prototype as unknown as { send: Send }).send = async function (command, ...rest) {
    const op = (command as object).constructor.name.replace(/Command$/, '');
    reading.byOperation[`S3.${op}`] = (reading.byOperation[`S3.${op}`] ?? 0) + 1;
    if (/^(Put|Copy|Post|List|CreateMultipart|UploadPart|CompleteMultipart)/.test(op)) reading.s3Writes += 1;
    else reading.s3Reads += 1;
    return s3Send.call(this, command, ...rest);
  };

  return {
    read: (): MeterReading => structuredClone(reading),
    reset,
    uninstall: () => {
      (DynamoDBDocumentClient.prototype as unknown as { send: Send }).send = docSend;
      (S3Client.prototype as unknown as { send: Send }).send = s3Send;
    },
  };
};
