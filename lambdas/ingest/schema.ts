import { S3EventNotificationEventBridgeSchema } from '@aws-lambda-powertools/parser/schemas/s3';
import * as z from 'zod';

/** Ingest's input: the EventBridge "Object Created" event and the execution that carries it. */
export const IngestInputSchema = z.object({
  event: S3EventNotificationEventBridgeSchema,
  executionArn: z.string().min(1),
});

/** Parsed ingest input. */
export type IngestInput = z.infer<typeof IngestInputSchema>;

/** What ingest hands to the state machine (it replaces the execution payload). */
export interface IngestResult {
  workflowId: string;
  tenant: string;
  duplicate: boolean;
}
