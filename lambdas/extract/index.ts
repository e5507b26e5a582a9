/** The extract stage's logic: the `Extractor` interface and its heuristic and Bedrock implementations. */
export * from './bedrockExtractor.js';
export * from './classify.js';
export * from './createExtractor.js';
export * from './errors.js';
export * from './extractor.js';
export * from './heuristicExtractor.js';
export * from './pdfTextSchema.js';
