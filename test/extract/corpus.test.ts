import { describe, expect, it } from 'vitest';
import { CORPUS_PROVIDERS, generateCorpus } from '../../cli/samples/corpus.js';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { providerLookupFrom } from '../../lambdas/shared/documents/index.js';
import { validateDocument } from '../../lambdas/validate/index.js';
import { transition } from '../../statemachine/index.js';
import { requiredFieldsRight, scoreFields } from '../fixtures/corpus/scoring.js';

describe('heuristic extraction of corpus documents (layout lines)', () => {
  it('auto-approves only documents whose required fields are right, and none that must be reviewed', async () => {
    // Prepare
    const docs = await generateCorpus({ count: 48, seed: 99 });
    const extractor = new HeuristicExtractor();
    const lookupProvider = providerLookupFrom(CORPUS_PROVIDERS);

    // Act
    const outcomes = await Promise.all(
      docs.map(async (doc) => {
        const extraction = await extractor.extract(doc.text());
        const validation = await validateDocument(extraction, {
          lookupProvider,
          now: new Date('2025-06-01'),
        });
        const decision = transition('validating', 'validation_completed', {
          confidence: validation.confidence,
          confidenceThreshold: 80,
          requiredFieldsValid: validation.requiredFieldsValid,
        });
        const right =
          extraction.docType === doc.truth.docType &&
          requiredFieldsRight(doc.truth, scoreFields(doc.truth, extraction));
        const codes = validation.reasons.map((r) => r.code);
        return { doc, approved: decision.ok && decision.to === 'validated', right, codes };
      }),
    );

    // Assess
    const approved = outcomes.filter((o) => o.approved);
    expect(approved.filter((o) => !o.right).map((o) => o.doc.truth.id)).toEqual([]);
    expect(approved.filter((o) => o.doc.truth.set === 'review').map((o) => o.doc.truth.id)).toEqual([]);
    const review = outcomes.filter((o) => o.doc.truth.set === 'review');
    expect(
      review
        .filter((o) => !o.doc.truth.expectedReasons.every((c) => o.codes.includes(c)))
        .map((o) => o.doc.truth.id),
    ).toEqual([]);
    const clean = outcomes.filter((o) => o.doc.truth.set === 'clean');
    expect(clean.filter((o) => o.approved).length / clean.length).toBeGreaterThanOrEqual(0.8);
  });
});
