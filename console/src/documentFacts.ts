import { checkedFields, describeCheckedFields } from '../../lambdas/shared/documents/index.js';
import { resolvePolicy } from '../../statemachine/index.js';
import type { ReviewDetail, WorkflowView } from './api.js';
import { h } from './dom.js';
import { percent } from './format.js';

/**
 * What the head of a review shows about the document: its type and id, language, how its text
 * was read, whether its e-invoice sums hold, confidence, priority and pages.
 */
export const factItems = (detail: ReviewDetail): HTMLElement[] => {
  const w = detail.workflow;
  return [
    h('span', {}, `${detail.docType ?? 'document'} · ${w.id}`),
    ...(detail.language
      ? [h('span', { title: 'language of the document' }, languageName(detail.language))]
      : []),
    ...(detail.textOrigin === 'ocr' ? [h('span', { title: 'read from a scan' }, 'OCR')] : []),
    ...(detail.einvoice
      ? [
          h(
            'span',
            {
              class: detail.einvoice.consistent ? 'einvoice-ok' : 'einvoice-bad',
              title: detail.einvoice.issues.join('\n'),
            },
            `e-invoice (${detail.einvoice.syntax.toUpperCase()})${detail.einvoice.consistent ? '' : ': sums do not hold'}`,
          ),
        ]
      : []),
    h('span', { title: `overall confidence ${percent(w.confidence)}` }, confidenceFact(detail)),
    h('span', {}, `priority ${w.review?.priority ?? '—'}`),
    h('span', {}, `${w.pageCount ?? '?'} page(s)`),
  ];
};

/** "4 of 5 required fields checked; weakest: total (45%)": what is confirmed, not a mean a missing field drags down. */
const confidenceFact = (detail: ReviewDetail): string => {
  const checked = checkedFields(detail.docType, detail.fields, resolvePolicy().confidenceThreshold / 100);
  return checked ? describeCheckedFields(checked) : `confidence ${percent(detail.workflow.confidence)}`;
};

/** Why the document waits for a reviewer: one item per reason, its code in bold. */
export const reasonItems = (w: WorkflowView): HTMLElement[] =>
  (w.review?.reasons ?? []).map((r) =>
    h('li', { class: `reason-${r.code}` }, h('strong', {}, r.code.replace(/_/g, ' ')), ' ', r.message),
  );

/** A language code as its name in the reviewer's browser language ("de" -> "German"). */
const languageName = (code: string): string => {
  try {
    return new Intl.DisplayNames([navigator.language || 'en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
};
