import * as z from 'zod';
import { ObjectCreatedEventSchema } from '../shared/objectCreatedEvent.js';

/** Ingest's input: the EventBridge "Object Created" event and the execution that carries it. */
export const IngestInputSchema = z.object({
  event: ObjectCreatedEventSchema,
  executionArn: z.string().min(1),
});

/** Parsed ingest input. */
export type IngestInput = z.infer<typeof IngestInputSchema>;

/** A workflow ingest created or found (it replaces the execution payload). */
export interface IngestedResult {
  workflowId: string;
  tenant: string;
  duplicate: boolean;
}

/** An upload whose key broke the key policy: moved to quarantine, no workflow. */
export interface QuarantinedResult {
  quarantined: true;
  quarantineKey: string;
  reason: string;
}

/** What ingest hands to the state machine: a workflow to carry on, or a quarantined upload. */
export type IngestResult = IngestedResult | QuarantinedResult;
