import * as z from 'zod';
import { type DocType, FIELD_SCHEMAS } from '../../shared/documents/index.js';

/** The tool the model calls for each doc type: calling it is the classification. */
export const TOOL_NAMES = {
  contract: 'record_contract',
  invoice: 'record_invoice',
} as const satisfies Record<DocType, string>;

/** How one field comes back from the model: value, confidence and where it was read. */
export const toolFieldSchema = (value: z.ZodType) =>
  z
    .object({
      value,
      confidence: z.number().min(0).max(1).describe('How sure you are that the value is right, 0-1'),
      page: z.int().min(1).describe('Page the value was read from (the [p N] marker)'),
      line: z.int().min(1).describe('Line the value was read from (the [p N l M] marker)'),
    })
    .strict();

/**
 * The tool input schema of a doc type, generated from the field schema: every field optional
 * (leave out what the document does not say), each wrapped with confidence and page/line.
 */
export const toolInputSchema = (type: DocType) => {
  const shape: Record<string, z.ZodType> = FIELD_SCHEMAS[type].shape;
  const fields = Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => {
      const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
      return [
        name,
        toolFieldSchema(inner)
          .optional()
          .describe(inner.description ?? name),
      ];
    }),
  );
  return z
    .object({
      classificationConfidence: z
        .number()
        .min(0)
        .max(1)
        .describe(`How sure you are that the document is a ${type}, 0-1`),
      fields: z.object(fields).strict(),
    })
    .strict();
};

/**
 * The tool the model calls when the document is neither a contract nor an invoice. Tool use is
 * forced (`toolChoice: any`), so without this tool the model could only mislabel such a document.
 */
export const NEITHER_TOOL_NAME = 'not_a_contract_or_invoice';

/** Input of the "neither" tool: why, in a sentence, for the rejection message. */
export const neitherToolInputSchema = z
  .object({
    reason: z
      .string()
      .min(1)
      .max(300)
      .describe(
        'In one short sentence: what the document is, or why it is neither a contract nor an invoice',
      ),
  })
  .strict();

/** JSON Schema of a zod tool input, as Bedrock's `toolSpec.inputSchema.json` takes it. */
const jsonSchemaOf = (schema: z.ZodType): Record<string, unknown> => {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    target: 'draft-7',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return json;
};

/** JSON Schema of a doc type's tool input. */
export const toolJsonSchema = (type: DocType): Record<string, unknown> => jsonSchemaOf(toolInputSchema(type));

/** JSON Schema of the "neither" tool's input. */
export const neitherToolJsonSchema = (): Record<string, unknown> => jsonSchemaOf(neitherToolInputSchema);
