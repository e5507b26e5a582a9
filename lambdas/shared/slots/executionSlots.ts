import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The one item in the workflows table that holds the execution slots. It has no `state` and no
 * index attributes, so listings and the GSIs never see it (like the extraction-cache records).
 */
export const SLOTS_ITEM_ID = 'slots#executions';

/** What `take` did. */
export type TakeResult =
  /** A slot is now held under this name. */
  | 'taken'
  /** The name already held a slot (the same upload delivered again): nothing changed. */
  | 'held'
  /** Every slot is held. */
  | 'full';

/** A held slot: the execution name it was taken for and when. */
export interface SlotHolder {
  readonly name: string;
  readonly takenAt: string;
}

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException ||
  (error instanceof Error && error.name === 'ConditionalCheckFailedException');

/**
 * A counter of running executions that bounds them at `limit`, the way the AWS GenAI IDP
 * accelerator bounds its workflows: `StartExecution` returns at once, so neither a queue nor the
 * starter's concurrency limits how many executions run; a slot taken before each start and
 * released when the automatic part ends does.
 *
 * The holders are a map on one item, keyed by execution name: taking and releasing are single
 * conditional updates (no transactions), a release is idempotent (releasing twice, or a name that
 * never held a slot, changes nothing), and the count is the map's size, so no separate counter
 * can drift from it. A release that never comes (a lost event) is repaired by `reconcile`.
 */
export class ExecutionSlots {
  constructor(
    private readonly deps: {
      client: DynamoDBDocumentClient;
      /** The workflows table. */
      table: string;
      limit: number;
      now?: () => Date;
    },
  ) {}

  /** How many executions may hold a slot at once (`maxRunningExecutions`). */
  get limit(): number {
    return this.deps.limit;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Creates the item with no holders if it does not exist (a nested SET needs the map). */
  private async ensureItem(): Promise<void> {
    await this.deps.client.send(
      new UpdateCommand({
        TableName: this.deps.table,
        Key: { id: SLOTS_ITEM_ID },
        UpdateExpression: 'SET holders = if_not_exists(holders, :empty)',
        ExpressionAttributeValues: { ':empty': {} },
      }),
    );
  }

  /**
   * Whether the item is known to exist: it is created once and never deleted (no role may delete
   * it), so once seen, a failed take means "all held" with no read to tell it from "no item yet".
   */
  private itemExists = false;

  /**
   * Takes a slot for execution `name` unless all `limit` are held. One conditional update says
   * which: a name already holding a slot passes the condition and keeps its time (its old value
   * comes back: `held`), a new one passes while there is room (`taken`). A refusal is "all held"
   * once the item is known to exist: a starter waiting for a slot polls with updates alone, no
   * read after each refusal.
   */
  async take(name: string): Promise<TakeResult> {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const { Attributes } = await this.deps.client.send(
          new UpdateCommand({
            TableName: this.deps.table,
            Key: { id: SLOTS_ITEM_ID },
            UpdateExpression: 'SET holders.#name = if_not_exists(holders.#name, :takenAt)',
            ConditionExpression: 'attribute_exists(holders.#name) OR size(holders) < :limit',
            ExpressionAttributeNames: { '#name': name },
            ExpressionAttributeValues: { ':takenAt': this.now().toISOString(), ':limit': this.deps.limit },
            ReturnValues: 'UPDATED_OLD',
          }),
        );
        this.itemExists = true;
        const before = Attributes?.holders as Record<string, string> | undefined;
        return before?.[name] !== undefined ? 'held' : 'taken';
      } catch (error) {
        if (isConditionFailure(error)) {
          if (this.itemExists) return 'full';
          const holders = await this.readHolders();
          if (holders === undefined) {
            // First use of the table: create the item, then try once more.
            await this.ensureItem();
            continue;
          }
          this.itemExists = true;
          return holders.some((h) => h.name === name) ? 'held' : 'full';
        }
        // DynamoDB rejects a nested SET when the map does not exist yet.
        if (error instanceof Error && error.name === 'ValidationException' && attempt === 0) {
          await this.ensureItem();
          continue;
        }
        throw error;
      }
    }
    return 'full';
  }

  /** Releases the slot of execution `name`; false when it held none (already released). */
  async release(name: string): Promise<boolean> {
    try {
      await this.deps.client.send(
        new UpdateCommand({
          TableName: this.deps.table,
          Key: { id: SLOTS_ITEM_ID },
          UpdateExpression: 'REMOVE holders.#name',
          ConditionExpression: 'attribute_exists(holders.#name)',
          ExpressionAttributeNames: { '#name': name },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  private async readHolders(): Promise<SlotHolder[] | undefined> {
    const { Item } = await this.deps.client.send(
      new GetCommand({ TableName: this.deps.table, Key: { id: SLOTS_ITEM_ID }, ConsistentRead: true }),
    );
    const holders = Item?.holders as Record<string, string> | undefined;
    if (!holders) return undefined;
    return Object.entries(holders).map(([name, takenAt]) => ({ name, takenAt }));
  }

  /** Every held slot (a consistent read). */
  async holders(): Promise<SlotHolder[]> {
    return (await this.readHolders()) ?? [];
  }

  /**
   * Releases every slot whose execution no longer needs it, as `stillRunning` judges (on AWS:
   * DescribeExecution says RUNNING and the workflow is not waiting for a reviewer). Slots taken
   * less than `graceMs` ago are kept: their execution may not have started yet. Returns the names
   * released.
   */
  async reconcile(
    stillRunning: (name: string) => Promise<boolean>,
    options: { graceMs?: number } = {},
  ): Promise<string[]> {
    const grace = options.graceMs ?? 60_000;
    const now = this.now().getTime();
    const released: string[] = [];
    for (const holder of await this.holders()) {
      if (now - Date.parse(holder.takenAt) < grace) continue;
      if (await stillRunning(holder.name)) continue;
      if (await this.release(holder.name)) released.push(holder.name);
    }
    return released;
  }
}
