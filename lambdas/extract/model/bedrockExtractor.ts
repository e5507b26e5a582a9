import {
  type BedrockRuntimeClient,
  type ContentBlock,
  ConverseCommand,
  type ConverseCommandOutput,
  type Message,
} from '@aws-sdk/client-bedrock-runtime';
import * as z from 'zod';
import {
  confidenceFrom,
  type DocType,
  DocTypeSchema,
  EVIDENCE_WEIGHT,
  type Evidence,
  type Extraction,
  type FieldSource,
  fieldSchema,
  type RejectedValue,
} from '../../shared/documents/index.js';
import type { PdfText } from '../../shared/pdfText.js';
import { BedrockRequestRejected, BedrockUnavailable, ModelOutputInvalid } from '../errors.js';
import type { Extractor } from '../extractor.js';
import { finderContext } from '../text/context.js';
import { findPrinted, PRINTABLE_FIELDS } from '../text/printed.js';
import { indexText } from '../text/textIndex.js';
import { unclassified } from '../unclassified.js';
import {
  NEITHER_TOOL_NAME,
  neitherToolJsonSchema,
  TOOL_NAMES,
  toolFieldSchema,
  toolJsonSchema,
} from './toolSchema.js';

/** Written to every record; bump when the prompt or tool schema changes. */
export const BEDROCK_EXTRACTOR_VERSION = '1.2.0';

/** Characters of document text sent to the model (the rest is cut, and the prompt says so). */
export const MAX_PROMPT_CHARS = 150_000;

const SYSTEM_PROMPT = [
  'You extract fields from business documents for an accounts team.',
  'Decide whether the document is a contract or an invoice and call exactly one tool: record_contract or record_invoice.',
  `If it is neither, call ${NEITHER_TOOL_NAME} with a short reason instead.`,
  'Every line of the document is prefixed with [p PAGE l LINE]; give the page and line each value was read from.',
  'Copy identifiers and names exactly as printed. Dates as YYYY-MM-DD; amounts as decimal strings with a dot and no',
  'thousands separators; currencies as ISO 4217 codes. Leave out any field the document does not state: never guess.',
  'Set confidence low when a value could be read more than one way (for example 05/03/2025 with no other date',
  'showing the day/month order).',
].join(' ');

/** Bedrock errors a later attempt can get past. */
const TRANSIENT_ERRORS = new Set([
  'ThrottlingException',
  'ServiceUnavailableException',
  'InternalServerException',
  'ModelTimeoutException',
  'ModelNotReadyException',
  'ModelErrorException',
  'ServiceQuotaExceededException',
  'TimeoutError',
  'RequestTimeout',
]);

const numberedText = (text: PdfText): string => {
  let out = '';
  for (const page of text.pages) {
    for (const [i, line] of page.lines.entries()) {
      if (line.trim() === '') continue;
      const next = `[p ${page.page} l ${i + 1}] ${line}\n`;
      if (out.length + next.length > MAX_PROMPT_CHARS) {
        return `${out}[the rest of the document, from page ${page.page}, is cut for length]\n`;
      }
      out += next;
    }
  }
  return out;
};

const EnvelopeSchema = z.object({
  classificationConfidence: z.number().min(0).max(1).optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
});

const toBedrockError = (error: unknown): Error => {
  const name = error instanceof Error ? error.name : 'UnknownError';
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const detail = `${name}${status ? ` (HTTP ${status})` : ''}: ${error instanceof Error ? error.message : String(error)}`;
  // No HTTP status means the request never got an answer (network, DNS, socket): worth retrying.
  if (TRANSIENT_ERRORS.has(name) || status === undefined || status >= 500 || status === 429) {
    return new BedrockUnavailable(detail, { cause: error });
  }
  return new BedrockRequestRejected(detail, { cause: error });
};

/** Dependencies of the Bedrock extractor (built by the caller, so tests can point them anywhere). */
export interface BedrockExtractorOptions {
  client: BedrockRuntimeClient;
  /** Model or inference profile id, from configuration (`DOCKET_BEDROCK_MODEL_ID`). */
  modelId: string;
  /** Output token cap (default 4096). */
  maxTokens?: number;
}

/**
 * Extraction by a Bedrock model through the Converse API. The model is given one tool per doc type
 * whose input schema is generated from the zod field schema (`z.toJSONSchema`), and a third tool
 * for a document that is neither; a tool call is forced, and which tool is called is the
 * classification. Each returned field is parsed with the same zod schema: a malformed value is
 * recorded as rejected, not trusted. A reply without a tool call is asked again once.
 */
export class BedrockExtractor implements Extractor {
  readonly name = 'bedrock' as const;
  private readonly tools = [
    ...(['contract', 'invoice'] as const).map((type) => ({
      toolSpec: {
        name: TOOL_NAMES[type],
        description: `Record the fields of a ${type}.`,
        inputSchema: { json: toolJsonSchema(type) as never },
      },
    })),
    {
      toolSpec: {
        name: NEITHER_TOOL_NAME,
        description: 'Report that the document is neither a contract nor an invoice.',
        inputSchema: { json: neitherToolJsonSchema() as never },
      },
    },
  ];

  constructor(private readonly options: BedrockExtractorOptions) {}

  private get info(): Extraction['extractor'] {
    return { name: 'bedrock', version: BEDROCK_EXTRACTOR_VERSION, modelId: this.options.modelId };
  }

  async extract(text: PdfText): Promise<Extraction> {
    const messages: Message[] = [{ role: 'user', content: [{ text: numberedText(text) }] }];
    for (let attempt = 1; attempt <= 2; attempt++) {
      const output = await this.converse(messages);
      const content: ContentBlock[] = output.output?.message?.content ?? [];
      const toolUse = content.find((block) => block.toolUse)?.toolUse;
      if (toolUse?.name === NEITHER_TOOL_NAME) {
        // Readable but of no known type: a person picks the type (the model's reason is not kept:
        // it would read as the document's own words).
        return unclassified(text, this.info, finderContext(indexText(text)).language);
      }
      if (toolUse) {
        const docType = (Object.entries(TOOL_NAMES).find(([, name]) => name === toolUse.name)?.[0] ??
          '') as DocType;
        if (!DocTypeSchema.safeParse(docType).success) {
          throw new ModelOutputInvalid(`the model called an unknown tool "${toolUse.name}"`);
        }
        return this.toExtraction(docType, toolUse.input, text);
      }
      // Tool use is forced, so a text-only reply is a model misstep, not a verdict: a "neither"
      // comes only through its tool. Ask once more.
      if (output.output?.message) messages.push(output.output.message);
      messages.push({
        role: 'user',
        content: [
          {
            text: `Call ${TOOL_NAMES.contract} or ${TOOL_NAMES.invoice} with the fields, or ${NEITHER_TOOL_NAME}.`,
          },
        ],
      });
    }
    throw new ModelOutputInvalid('no tool call in two replies');
  }

  private async converse(messages: Message[]): Promise<ConverseCommandOutput> {
    try {
      return await this.options.client.send(
        new ConverseCommand({
          modelId: this.options.modelId,
          system: [{ text: SYSTEM_PROMPT }],
          messages,
          toolConfig: { tools: this.tools, toolChoice: { any: {} } },
          inferenceConfig: { maxTokens: this.options.maxTokens ?? 4096, temperature: 0 },
        }),
      );
    } catch (error) {
      throw toBedrockError(error);
    }
  }

  private toExtraction(docType: DocType, input: unknown, text: PdfText): Extraction {
    const envelope = EnvelopeSchema.safeParse(input);
    if (!envelope.success) throw new ModelOutputInvalid('the tool input is not an object of fields');
    const fields: Record<string, unknown> = {};
    const rejected: RejectedValue[] = [];
    const ctx = finderContext(indexText(text));
    const sourceAt = (page: number, line: number): FieldSource | undefined => {
      const lineText = text.pages.find((p) => p.page === page)?.lines[line - 1];
      return lineText === undefined ? undefined : { page, line, text: lineText.slice(0, 2000) };
    };
    for (const [name, raw] of Object.entries(envelope.data.fields ?? {})) {
      const schema = fieldSchema(docType, name);
      if (!schema || raw === null || raw === undefined) continue;
      const parsed = toolFieldSchema(schema).safeParse(raw);
      if (!parsed.success) {
        rejected.push({
          field: name,
          raw: JSON.stringify(raw).slice(0, 2000),
          reason: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
        });
        continue;
      }
      const { value, confidence, page, line } = parsed.data as {
        value: unknown;
        confidence: number;
        page: number;
        line: number;
      };
      const source = sourceAt(page, line);
      // A model is confident when it is wrong too: its own confidence is capped at a model's
      // weight, and the value must at least be printed on the page to count for something.
      const printedOn = findPrinted(ctx, name, value);
      const evidence: Evidence[] = [
        {
          kind: 'model',
          weight: Math.min(confidence, EVIDENCE_WEIGHT.model),
          detail: `${this.options.modelId} at p${page} l${line}`,
        },
        printedOn
          ? {
              kind: 'grounded',
              weight: EVIDENCE_WEIGHT.grounded,
              detail: `printed at p${printedOn.page} l${printedOn.line}`,
            }
          : PRINTABLE_FIELDS.has(name)
            ? { kind: 'conflict', weight: 0.5, detail: 'not printed anywhere on the page' }
            : undefined,
      ].filter((e): e is Evidence => e !== undefined);
      fields[name] = { value, confidence: confidenceFrom(evidence), ...(source ? { source } : {}), evidence };
    }
    return {
      schemaVersion: 1,
      docType,
      classificationConfidence: envelope.data.classificationConfidence ?? 0.9,
      extractor: this.info,
      pageCount: text.pageCount,
      fields,
      rejected,
      ...(ctx.language ? { language: ctx.language } : {}),
      textOrigin: text.origin ?? 'text-layer',
    } as Extraction;
  }
}
