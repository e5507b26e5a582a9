import type { S3Client } from '@aws-sdk/client-s3';
import { ArtifactMissingError, finalRecordKey, getJsonArtifact } from '../shared/artifacts.js';
import type { ExtractedField, Extraction } from '../shared/documents/index.js';
import type { ResultField } from '../shared/results/record.js';
import type { CompletionEventType, OutboxEntry, WorkflowItem } from '../shared/store/index.js';
import { fieldsAsValidated } from '../shared/workflowViews.js';

/** The `source` of every Docket event. */
export const DOCUMENT_EVENT_SOURCE = 'docket';
/** The version of the detail's shape (`schemas/document-event.v1.schema.json`). */
export const DOCUMENT_EVENT_VERSION = 1;
/**
 * The largest detail sent with its fields: EventBridge takes 256 KiB per PutEvents, envelope
 * included. A bigger one goes without them (`fieldsOmitted: 'too_large'`); `links` still name them.
 */
export const MAX_DETAIL_BYTES = 200 * 1024;

/**
 * One final field value and who set it: the same shape the JSON result carries (results/record.ts
 * documents each member), so an event and a result never disagree on a field.
 */
export type FieldDetail = ResultField;

/** The detail of a document event, version 1 (the JSON Schema in schemas/ describes it). */
export interface DocumentEventDetail {
  version: typeof DOCUMENT_EVENT_VERSION;
  /** Stable across redeliveries (EventBridge's own `id` is not): consumers dedupe by it. */
  eventId: string;
  type: CompletionEventType;
  workflowId: string;
  tenant: string;
  state: 'completed' | 'rejected' | 'timed_out' | 'cancelled';
  /** When the workflow entered `state`. */
  occurredAt: string;
  /** Who made that transition: `system`, the reviewer or the operator. */
  actor: string;
  docType: 'contract' | 'invoice' | 'unclassified' | null;
  fields: Record<string, FieldDetail>;
  /** Why `fields` is empty although there was a record: too big for an event, erased, expired. */
  fieldsOmitted?: 'too_large' | 'erased' | 'unavailable';
  comparison: { status: string; critical: number; warning: number; referenceId?: string } | null;
  review: { decision: string; reviewer: string; at: string } | null;
  /** What a person wrote about the end: a reviewer's reason to reject, an operator's to cancel. */
  reason: string | null;
  /** The error a rejection by the system was for (its type, never its message). */
  error: { type: string; retryable: boolean } | null;
  /** S3 keys: the upload and the artifacts (in `bucket`). */
  links: {
    bucket: string;
    source?: { key: string; versionId?: string };
    text?: string;
    extraction?: string;
    reviewed?: string;
    comparison?: string;
  };
}

/** What the detail is built from besides the item. */
export interface DetailDeps {
  s3: S3Client;
  bucket: string;
}

type Fields = Record<string, ExtractedField<unknown>>;

/**
 * Who set a field: a person who set it in an earlier run and whose value this run kept (locked),
 * the reviewer who corrected it in this one, else the extractor.
 */
const setterOf = (
  field: ExtractedField<unknown>,
  decision: { reviewer: string; at: string } | undefined,
  extractor: string,
): Omit<FieldDetail, 'value' | 'confidence'> => {
  if (field.locked) return { setBy: field.locked.by, origin: 'review', setAt: field.locked.at };
  if (field.corrected && decision) return { setBy: decision.reviewer, origin: 'review', setAt: decision.at };
  return { setBy: 'system', origin: 'extraction', extractor };
};

/** Each field with its validated confidence and who set it. */
const fieldDetails = (record: Extraction, item: WorkflowItem): Record<string, FieldDetail> => {
  const decision = item.review?.decision;
  const validated = fieldsAsValidated((record.fields ?? {}) as Fields, item);
  return Object.fromEntries(
    Object.entries(validated).map(([name, field]) => [
      name,
      {
        value: field.value,
        confidence: field.confidence,
        ...setterOf(field, decision, record.extractor.name),
      },
    ]),
  );
};

/** The final record: the reviewed one when a reviewer corrected it, else the extraction. */
const finalRecord = async (
  deps: DetailDeps,
  item: WorkflowItem,
): Promise<{ record?: Extraction; omitted?: DocumentEventDetail['fieldsOmitted'] }> => {
  const key = finalRecordKey(item.artifacts);
  if (!key) return {};
  try {
    return { record: await getJsonArtifact<Extraction>(deps.s3, deps.bucket, key) };
  } catch (error) {
    if (!(error instanceof ArtifactMissingError)) throw error;
    return { omitted: item.lastEvent === 'erase' ? 'erased' : 'unavailable' };
  }
};

const definedOnly = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/**
 * The detail of the event `entry` of `item` with every field, whatever its size (the result
 * written for a completed workflow keeps them all), built now from the item and its final record
 * in S3 (the outbox holds ids only). A record S3 no longer has (erased, expired) leaves `fields`
 * empty and says why; S3 being unreachable throws, and the event waits for the next run.
 */
export const fullEventDetail = async (
  deps: DetailDeps,
  item: WorkflowItem,
  entry: OutboxEntry,
): Promise<DocumentEventDetail> => {
  const { record, omitted } = await finalRecord(deps, item);
  const comparison = item.summary?.comparison as DocumentEventDetail['comparison'] | undefined;
  const referenceId = item.summary?.referenceId;
  const decision = item.review?.decision;
  const reason =
    entry.state === 'cancelled'
      ? item.cancellation?.reason
      : entry.state === 'rejected'
        ? decision?.reason
        : undefined;
  const detail: DocumentEventDetail = {
    version: DOCUMENT_EVENT_VERSION,
    eventId: entry.eventId,
    type: entry.type as CompletionEventType,
    workflowId: item.id,
    tenant: item.tenant,
    state: entry.state as DocumentEventDetail['state'],
    occurredAt: entry.createdAt,
    actor: entry.actor,
    docType: record?.docType ?? item.docType ?? null,
    fields: record ? fieldDetails(record, item) : {},
    ...(omitted && { fieldsOmitted: omitted }),
    comparison: comparison
      ? {
          status: comparison.status,
          critical: comparison.critical,
          warning: comparison.warning,
          ...(typeof referenceId === 'string' && { referenceId }),
        }
      : null,
    review: decision ? { decision: decision.decision, reviewer: decision.reviewer, at: decision.at } : null,
    reason: reason ?? null,
    error:
      entry.state === 'rejected' && item.lastError && entry.actor === 'system'
        ? { type: item.lastError.type, retryable: item.lastError.retryable }
        : null,
    links: definedOnly({
      bucket: deps.bucket,
      ...(item.source?.key && {
        source: definedOnly({ key: item.source.key, versionId: item.source.versionId }),
      }),
      text: item.artifacts?.text,
      extraction: item.artifacts?.extraction,
      reviewed: item.artifacts?.reviewed,
      comparison: item.artifacts?.comparison,
    }),
  };
  return detail;
};

/** The detail as sent: without its fields when they would make it too big for EventBridge. */
export const fitForEvent = (detail: DocumentEventDetail): DocumentEventDetail =>
  Buffer.byteLength(JSON.stringify(detail)) <= MAX_DETAIL_BYTES
    ? detail
    : { ...detail, fields: {}, fieldsOmitted: 'too_large' };

/** The detail of the event `entry` of `item` as sent (fullEventDetail, then fitForEvent). */
export const documentEventDetail = async (
  deps: DetailDeps,
  item: WorkflowItem,
  entry: OutboxEntry,
): Promise<DocumentEventDetail> => fitForEvent(await fullEventDetail(deps, item, entry));
