import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import * as z from 'zod';
import { EnvVar } from '../shared/config.js';
import { ConfigurationError } from '../shared/errors.js';
import { DocumentExtractor } from './documentExtractor.js';
import type { Extractor } from './extractor.js';
import { BedrockExtractor } from './model/bedrockExtractor.js';
import { HeuristicExtractor } from './text/heuristicExtractor.js';

/** Which extractor the extract stage uses. */
export const ExtractorConfigSchema = z.discriminatedUnion('extractor', [
  z.object({ extractor: z.literal('heuristic') }),
  z.object({ extractor: z.literal('bedrock'), bedrockModelId: z.string().trim().min(1) }),
]);

/** The extract stage's configuration. */
export type ExtractorConfig = z.infer<typeof ExtractorConfigSchema>;

/**
 * Reads the configuration from `DOCKET_EXTRACTOR` (`heuristic`, the default, or `bedrock`) and
 * `DOCKET_BEDROCK_MODEL_ID` (required for `bedrock`).
 */
export const extractorConfigFromEnv = (env: NodeJS.ProcessEnv = process.env): ExtractorConfig => {
  const extractor = env[EnvVar.extractor]?.trim() || 'heuristic';
  const parsed = ExtractorConfigSchema.safeParse(
    extractor === 'bedrock' ? { extractor, bedrockModelId: env[EnvVar.bedrockModelId] ?? '' } : { extractor },
  );
  if (parsed.success) return parsed.data;
  throw new ConfigurationError(
    extractor === 'bedrock'
      ? 'DOCKET_EXTRACTOR=bedrock needs DOCKET_BEDROCK_MODEL_ID (a Bedrock model or inference profile id).'
      : `DOCKET_EXTRACTOR must be "heuristic" or "bedrock"; got "${extractor}".`,
  );
};

/**
 * Builds the configured extractor: e-invoice data first, then the configured reader of the
 * text (the layout heuristics, or Bedrock). The Bedrock client is only created when needed.
 */
export const createExtractor = (
  config: ExtractorConfig,
  deps: { bedrockClient?: () => BedrockRuntimeClient } = {},
): Extractor => {
  if (config.extractor === 'heuristic') return new DocumentExtractor(new HeuristicExtractor());
  if (!deps.bedrockClient) {
    throw new ConfigurationError(
      'The bedrock extractor needs a BedrockRuntimeClient factory (deps.bedrockClient).',
    );
  }
  return new DocumentExtractor(
    new BedrockExtractor({ client: deps.bedrockClient(), modelId: config.bedrockModelId }),
  );
};
