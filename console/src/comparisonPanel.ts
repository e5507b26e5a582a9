import type { ReviewDetail } from './api.js';
import { h } from './dom.js';

const STATUS: Record<string, string> = {
  no_reference: 'nothing to compare with yet',
  consistent: 'consistent with its reference',
  changed: 'changed from its reference',
  attention: 'needs attention against its reference',
};

/**
 * The comparison beside the fields: what the record is compared with (the previous contract of
 * the same parties, or the invoice's contract), its verdict and each finding with its severity.
 * A preview (made for a review still waiting) says that the decision is still open.
 */
export const comparisonPanel = (detail: ReviewDetail): HTMLElement | null => {
  const report = detail.comparison;
  if (!report) return null;
  const against =
    report.kind === 'invoice_vs_contract'
      ? 'the contract it bills'
      : 'the previous contract of these parties';
  const { status, critical, warning } = report.summary;
  return h(
    'section',
    { class: `comparison status-${status}`, 'aria-label': 'comparison' },
    h('h2', {}, `Compared with ${against}`),
    h(
      'p',
      {},
      `${report.preview ? 'As the record stands now: ' : ''}${STATUS[status] ?? status}` +
        (critical + warning > 0 ? ` (${critical} critical, ${warning} warning)` : '') +
        (report.referenceId ? `, against ${report.referenceId}` : ''),
    ),
    report.findings.length > 0
      ? h(
          'ul',
          {},
          ...report.findings.map((f) =>
            h('li', { class: `sev-${f.severity}` }, h('strong', {}, `${f.severity}: `), f.message),
          ),
        )
      : null,
  );
};
