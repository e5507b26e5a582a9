import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { PROJECT_ROOT } from '../../infra/constructs/StageFunction.js';

// ajv-formats is CommonJS: its default export is the plugin function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The published schema of a document event's detail, as consumers read it from the repository. */
export const DOCUMENT_EVENT_SCHEMA = JSON.parse(
  readFileSync(join(PROJECT_ROOT, 'schemas/document-event.v1.schema.json'), 'utf8'),
) as Record<string, unknown>;

const validate = addFormats(new Ajv2020({ allErrors: true, strict: true })).compile(DOCUMENT_EVENT_SCHEMA);

/** The schema's complaints about a detail (`[]` when it conforms), each as path and message. */
export const schemaErrors = (detail: unknown): string[] =>
  validate(detail)
    ? []
    : (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
