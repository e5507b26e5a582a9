/** The extract stage's logic: the `Extractor` interface and its heuristic and Bedrock implementations. */

export * from './createExtractor.js';
export * from './documentExtractor.js';
export * from './errors.js';
export * from './extractor.js';
export * from './model/bedrockExtractor.js';
export * from './pdfTextSchema.js';
export * from './text/classify.js';
export * from './text/heuristicExtractor.js';
