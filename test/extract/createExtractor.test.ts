import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { describe, expect, it } from 'vitest';
import { createExtractor, extractorConfigFromEnv } from '../../lambdas/extract/createExtractor.js';
import { DocumentExtractor } from '../../lambdas/extract/documentExtractor.js';
import { BedrockExtractor } from '../../lambdas/extract/model/bedrockExtractor.js';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { ConfigurationError } from '../../lambdas/shared/errors.js';

describe('extractor configuration', () => {
  it('defaults to the heuristic extractor, behind the e-invoice reader', () => {
    // Act
    const config = extractorConfigFromEnv({});
    const extractor = createExtractor(config);

    // Assess
    expect(config).toEqual({ extractor: 'heuristic' });
    expect(extractor).toBeInstanceOf(DocumentExtractor);
    expect((extractor as DocumentExtractor).textExtractor).toBeInstanceOf(HeuristicExtractor);
  });

  it('builds the Bedrock extractor with the configured model id and the given client', () => {
    // Prepare
    const config = extractorConfigFromEnv({
      DOCKET_EXTRACTOR: 'bedrock',
      DOCKET_BEDROCK_MODEL_ID: 'amazon.nova-pro-v1:0',
    });
    const client = new BedrockRuntimeClient({ region: 'eu-west-1' });

    // Act
    const extractor = createExtractor(config, { bedrockClient: () => client });

    // Assess
    expect(config).toEqual({ extractor: 'bedrock', bedrockModelId: 'amazon.nova-pro-v1:0' });
    expect(extractor).toBeInstanceOf(DocumentExtractor);
    expect((extractor as DocumentExtractor).textExtractor).toBeInstanceOf(BedrockExtractor);
    client.destroy();
  });

  it('refuses bedrock without a model id, and an unknown extractor, naming the variable', () => {
    expect(() => extractorConfigFromEnv({ DOCKET_EXTRACTOR: 'bedrock' })).toThrow(/DOCKET_BEDROCK_MODEL_ID/);
    expect(() => extractorConfigFromEnv({ DOCKET_EXTRACTOR: 'magic' })).toThrow(ConfigurationError);
  });
});
