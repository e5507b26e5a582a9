import type { StoredAttribute } from './md5.js';

/** One message in a queue, with its delivery state. */
export interface Message {
  id: string;
  body: string;
  md5: string;
  attributes?: Record<string, StoredAttribute>;
  md5Attributes?: string;
  /** The AWSTraceHeader system attribute, when the sender gave one. */
  trace?: string;
  /** Epoch ms it was first sent (kept through a move to the dead-letter queue, as AWS does). */
  sent: number;
  /** Epoch ms from which it may be received: the end of its delay or of its visibility timeout. */
  visibleAt: number;
  /** ApproximateReceiveCount. */
  count: number;
  first?: number;
  /** The nonce of the latest receipt handle: only that handle deletes it. */
  receipt?: string;
  /** DeadLetterQueueSourceArn, once dead-lettered. */
  from?: string;
}

/** A parsed RedrivePolicy. */
export interface RedrivePolicy {
  deadLetterTargetArn: string;
  maxReceiveCount: number;
}

/** Queue attribute defaults, as AWS sets them (MaximumMessageSize is 1 MiB since 2025). */
export const DEFAULT_ATTRIBUTES: Readonly<Record<string, string>> = {
  VisibilityTimeout: '30',
  MessageRetentionPeriod: '345600',
  DelaySeconds: '0',
  ReceiveMessageWaitTimeSeconds: '0',
  MaximumMessageSize: '1048576',
};

/** The queue name an SQS ARN names (its sixth field), or undefined for anything else. */
export const queueNameOfArn = (arn: string): string | undefined => {
  const parts = arn.split(':');
  return parts.length === 6 && parts[0] === 'arn' && parts[2] === 'sqs' ? parts[5] : undefined;
};

/** A queue: its attributes and its messages in the order they arrived. */
export class Queue {
  /** Insertion order is send order: receives take the oldest visible messages first. */
  readonly messages = new Map<string, Message>();
  /** Long polls waiting on this queue; each is called when a message may have become receivable. */
  readonly waiters = new Set<() => void>();

  constructor(
    readonly name: string,
    readonly arn: string,
    public attributes: Record<string, string>,
    readonly created: number,
  ) {}

  private number(name: string): number {
    return Number(this.attributes[name] ?? DEFAULT_ATTRIBUTES[name]);
  }
  get visibilityTimeout(): number {
    return this.number('VisibilityTimeout');
  }
  get retentionSeconds(): number {
    return this.number('MessageRetentionPeriod');
  }
  get delaySeconds(): number {
    return this.number('DelaySeconds');
  }
  get waitSeconds(): number {
    return this.number('ReceiveMessageWaitTimeSeconds');
  }
  get maximumMessageSize(): number {
    return this.number('MaximumMessageSize');
  }
  get redrivePolicy(): RedrivePolicy | undefined {
    const text = this.attributes.RedrivePolicy;
    return text ? (JSON.parse(text) as RedrivePolicy) : undefined;
  }

  /** True once the message outlived MessageRetentionPeriod (counted from its first send). */
  expired(message: Message, now: number): boolean {
    return message.sent + this.retentionSeconds * 1000 <= now;
  }

  /** Drops messages past retention; AWS deletes them without a trace, so no record is written. */
  dropExpired(now: number): void {
    for (const message of this.messages.values())
      if (this.expired(message, now)) this.messages.delete(message.id);
  }

  /** The ApproximateNumberOfMessages* figures. */
  counts(now: number): { visible: number; inFlight: number; delayed: number } {
    this.dropExpired(now);
    let visible = 0;
    let inFlight = 0;
    let delayed = 0;
    for (const m of this.messages.values()) {
      if (m.visibleAt <= now) visible++;
      else if (m.count > 0) inFlight++;
      else delayed++;
    }
    return { visible, inFlight, delayed };
  }

  /** The soonest instant after `now` at which a message becomes receivable, if any. */
  nextVisible(now: number): number | undefined {
    let next: number | undefined;
    for (const m of this.messages.values())
      if (m.visibleAt > now && (next === undefined || m.visibleAt < next)) next = m.visibleAt;
    return next;
  }

  /** Wakes every long poll on this queue (each checks again and waits again if it finds nothing). */
  wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
