import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BedrockRequestRejected,
  BedrockUnavailable,
  ModelOutputInvalid,
} from '../../lambdas/extract/errors.js';
import { BedrockExtractor } from '../../lambdas/extract/model/bedrockExtractor.js';
import { ExtractionSchema } from '../../lambdas/shared/documents/index.js';
import { type StandInReply, startBedrockStandIn, textReply, toolUseReply } from './bedrockStandIn.js';
import { pdfTextOf } from './pdfTextOf.js';

const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const text = pdfTextOf(['INVOICE', 'Invoice No: INV-9', 'Date: 2025-03-05'], ['Total: EUR 1.234,50']);

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

const extractorAgainst = async (script: (call: number) => StandInReply) => {
  const standIn = await startBedrockStandIn((_request, call) => script(call));
  const client = new BedrockRuntimeClient({
    endpoint: standIn.endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
  stop = async () => {
    client.destroy();
    await standIn.close();
  };
  return { extractor: new BedrockExtractor({ client, modelId: MODEL }), requests: standIn.requests };
};

describe('BedrockExtractor (Bedrock mocked: no local implementation)', () => {
  it('sends the numbered text with one tool per doc type and one for neither, generated from the zod schemas', async () => {
    // Prepare
    const { extractor, requests } = await extractorAgainst(() =>
      toolUseReply('record_invoice', { classificationConfidence: 0.97, fields: {} }),
    );

    // Act
    await extractor.extract(text);

    // Assess
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.modelId).toBe(MODEL);
    const body = request?.body as {
      messages: { content: { text: string }[] }[];
      toolConfig: {
        tools: {
          toolSpec: { name: string; inputSchema: { json: { properties: Record<string, unknown> } } };
        }[];
        toolChoice: unknown;
      };
    };
    expect(body.messages[0]?.content[0]?.text).toContain('[p 2 l 1] Total: EUR 1.234,50');
    expect(body.toolConfig.toolChoice).toEqual({ any: {} });
    const tools = body.toolConfig.tools.map((t) => t.toolSpec);
    expect(tools.map((t) => t.name)).toEqual([
      'record_contract',
      'record_invoice',
      'not_a_contract_or_invoice',
    ]);
    expect(tools[2]?.inputSchema.json).toMatchObject({ required: ['reason'] });
    const invoiceTool = tools[1];
    if (!invoiceTool) throw new Error('the invoice tool is missing');
    const invoiceFields = (
      invoiceTool.inputSchema.json.properties.fields as {
        properties: Record<string, { properties: { value: { pattern?: string } } }>;
      }
    ).properties;
    expect(Object.keys(invoiceFields)).toContain('invoiceNumber');
    expect(invoiceFields.invoiceDate?.properties.value.pattern).toBeDefined();
  });

  it('parses the tool call with the field schemas: good values kept with their source, bad ones rejected', async () => {
    // Prepare
    const { extractor } = await extractorAgainst(() =>
      toolUseReply('record_invoice', {
        classificationConfidence: 0.97,
        fields: {
          invoiceNumber: { value: 'INV-9', confidence: 0.96, page: 1, line: 2 },
          invoiceDate: { value: '2025-03-05', confidence: 0.93, page: 1, line: 3 },
          currency: { value: 'EUR', confidence: 0.95, page: 2, line: 1 },
          total: { value: '1,234.50', confidence: 0.9, page: 2, line: 1 },
        },
      }),
    );

    // Act
    const extraction = await extractor.extract(text);

    // Assess
    expect(ExtractionSchema.safeParse(extraction).success).toBe(true);
    expect(extraction).toMatchObject({
      docType: 'invoice',
      classificationConfidence: 0.97,
      extractor: { name: 'bedrock', modelId: MODEL },
      pageCount: 2,
    });
    expect(extraction.fields).toMatchObject({
      invoiceNumber: { value: 'INV-9', source: { page: 1, line: 2, text: 'Invoice No: INV-9' } },
      currency: { value: 'EUR', source: { page: 2, line: 1 } },
    });
    // The model said 0.96; a model's answer alone, even printed on the page, stays below the
    // auto-approve threshold until something independent checks it.
    const number = (
      extraction.fields as Record<string, { confidence: number; evidence?: { kind: string }[] }>
    ).invoiceNumber;
    expect(number?.confidence).toBeLessThan(0.8);
    expect(number?.evidence?.map((e) => e.kind)).toEqual(['model', 'grounded']);
    expect((extraction.fields as Record<string, unknown>).total).toBeUndefined();
    expect(extraction.rejected).toEqual([
      expect.objectContaining({ field: 'total', raw: expect.stringContaining('1,234.50') }),
    ]);
  });

  it('asks once more when the model answers without a tool call', async () => {
    // Prepare
    const { extractor, requests } = await extractorAgainst((call) =>
      call === 1 ? textReply('Let me look at this.') : toolUseReply('record_contract', { fields: {} }),
    );

    // Act
    const extraction = await extractor.extract(text);

    // Assess
    expect(extraction.docType).toBe('contract');
    expect(requests).toHaveLength(2);
  });

  it('fails with the transient ModelOutputInvalid after two replies without a tool call', async () => {
    // Prepare
    const { extractor } = await extractorAgainst(() => textReply('Hmm.'));

    // Act
    const attempt = extractor.extract(text);

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(ModelOutputInvalid);
    await expect(attempt).rejects.toMatchObject({ retryable: true });
  });

  it('takes a call of the "neither" tool as an unclassified document for a person, not a rejection', async () => {
    // Prepare
    const { extractor, requests } = await extractorAgainst(() =>
      toolUseReply('not_a_contract_or_invoice', { reason: 'It is a restaurant menu.' }),
    );

    // Act
    const extraction = await extractor.extract(text);

    // Assess
    expect(ExtractionSchema.safeParse(extraction).success).toBe(true);
    expect(extraction).toMatchObject({ docType: 'unclassified', fields: {}, extractor: { name: 'bedrock' } });
    expect(requests).toHaveLength(1);
  });

  it('doubts a value the model gives that is printed nowhere on the page', async () => {
    // Prepare
    const { extractor } = await extractorAgainst(() =>
      toolUseReply('record_invoice', {
        fields: { invoiceNumber: { value: 'INV-404', confidence: 0.99, page: 1, line: 2 } },
      }),
    );

    // Act
    const extraction = await extractor.extract(text);

    // Assess
    const number = (
      extraction.fields as Record<string, { confidence: number; evidence?: { kind: string }[] }>
    ).invoiceNumber;
    expect(number?.evidence?.map((e) => e.kind)).toEqual(['model', 'conflict']);
    expect(number?.confidence).toBeLessThan(0.4);
  });

  it('takes a text reply saying "neither" as a missing tool call, not a verdict (the tool is forced)', async () => {
    // Prepare
    const { extractor, requests } = await extractorAgainst((call) =>
      call === 1 ? textReply('neither') : toolUseReply('record_invoice', { fields: {} }),
    );

    // Act
    const extraction = await extractor.extract(text);

    // Assess
    expect(extraction.docType).toBe('invoice');
    expect(requests).toHaveLength(2);
  });

  it('maps throttling to the retryable BedrockUnavailable', async () => {
    // Prepare
    const { extractor } = await extractorAgainst(() => ({
      status: 429,
      errorType: 'ThrottlingException',
      body: { message: 'Too many requests, please wait before trying again.' },
    }));

    // Act
    const attempt = extractor.extract(text);

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(BedrockUnavailable);
    await expect(attempt).rejects.toMatchObject({
      name: 'BedrockUnavailable',
      retryable: true,
      message: expect.stringContaining('ThrottlingException (HTTP 429)'),
    });
  });

  it('maps access denied to the permanent BedrockRequestRejected', async () => {
    // Prepare
    const { extractor } = await extractorAgainst(() => ({
      status: 403,
      errorType: 'AccessDeniedException',
      body: { message: 'You don’t have access to the model with the specified model ID.' },
    }));

    // Act
    const attempt = extractor.extract(text);

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(BedrockRequestRejected);
    await expect(attempt).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('AccessDeniedException (HTTP 403)'),
    });
  });
});
