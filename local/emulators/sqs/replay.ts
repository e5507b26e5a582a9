import type { JournalRecord } from './journal.js';
import { md5OfAttributes, md5OfBody } from './md5.js';
import { Queue } from './queue.js';

/** The decoded receipt handle: which queue, which message, which delivery. */
export interface Receipt {
  queue: string;
  id: string;
  nonce: string;
}

/** Receipt handles are opaque to clients; inside, a queue, a message id and a delivery nonce. */
export const encodeReceipt = (r: Receipt): string =>
  Buffer.from(JSON.stringify([r.queue, r.id, r.nonce]), 'utf8').toString('base64url');

/** The receipt a handle encodes, or undefined for a handle this store never issued. */
export const decodeReceipt = (handle: string): Receipt | undefined => {
  try {
    const parts = JSON.parse(Buffer.from(handle, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(parts) || parts.length !== 3 || !parts.every((p) => typeof p === 'string'))
      return undefined;
    const [queue, id, nonce] = parts as [string, string, string];
    return { queue, id, nonce };
  } catch {
    return undefined;
  }
};

/** Replays one record onto `queues`; a record for a message that is gone is ignored. */
export const apply = (queues: Map<string, Queue>, record: JournalRecord, arnOf: (name: string) => string) => {
  if (record.t === 'queue') {
    const existing = queues.get(record.name);
    if (existing) existing.attributes = record.attributes;
    else
      queues.set(record.name, new Queue(record.name, arnOf(record.name), record.attributes, record.created));
    return;
  }
  const queue = queues.get(record.q);
  if (!queue) return;
  switch (record.t) {
    case 'send':
      queue.messages.set(record.id, {
        id: record.id,
        body: record.body,
        md5: md5OfBody(record.body),
        ...(record.attributes && {
          attributes: record.attributes,
          md5Attributes: md5OfAttributes(record.attributes),
        }),
        ...(record.trace !== undefined && { trace: record.trace }),
        ...(record.from !== undefined && { from: record.from }),
        sent: record.sent,
        // Visibility is not journaled: a received message is visible again after a restart.
        visibleAt: record.delayUntil,
        count: record.count ?? 0,
        ...(record.first !== undefined && { first: record.first }),
      });
      return;
    case 'receive': {
      const message = queue.messages.get(record.id);
      if (message) Object.assign(message, { count: record.count, first: record.first });
      return;
    }
    case 'delete':
      queue.messages.delete(record.id);
      return;
    case 'move': {
      const message = queue.messages.get(record.id);
      const target = queues.get(record.to);
      if (!message || !target) return;
      queue.messages.delete(record.id);
      const { receipt: _receipt, first: _first, ...kept } = message;
      target.messages.set(record.id, { ...kept, count: 0, from: record.from });
      return;
    }
    case 'purge':
      queue.messages.clear();
  }
};

/** The records that rebuild `queues` as they are now: what compaction writes. */
export const snapshot = (queues: Map<string, Queue>): JournalRecord[] => {
  const records: JournalRecord[] = [];
  for (const q of queues.values())
    records.push({ t: 'queue', name: q.name, attributes: q.attributes, created: q.created });
  for (const q of queues.values())
    for (const m of q.messages.values())
      records.push({
        t: 'send',
        q: q.name,
        id: m.id,
        body: m.body,
        sent: m.sent,
        delayUntil: m.count === 0 ? m.visibleAt : 0,
        ...(m.attributes && { attributes: m.attributes }),
        ...(m.trace !== undefined && { trace: m.trace }),
        ...(m.count > 0 && { count: m.count }),
        ...(m.first !== undefined && { first: m.first }),
        ...(m.from !== undefined && { from: m.from }),
      });
  return records;
};
