import { checkedFromConfidences, describeCheckedFields } from '../../lambdas/shared/documents/index.js';
import { resolvePolicy } from '../../statemachine/index.js';
import type { Api, ReviewSummary } from './api.js';
import { claimText } from './claimText.js';
import { h, isTyping } from './dom.js';
import { countdown, fileName, percent } from './format.js';
import type { View } from './view.js';

const claimOf = (item: ReviewSummary) => ({
  claimedBy: item.claimedBy,
  claimedAt: item.claimedAt,
  claimExpiresAt: item.claimExpiresAt,
});

/**
 * The queue's confidence cell: "3 of 5" required fields checked, the bar as full as that share, the
 * weakest field in the tooltip; the same reading as the review's head, never the mean a single
 * missing field drags to "10%". A type without required fields shows the workflow's percentage.
 */
const confidenceCell = (item: ReviewSummary) => {
  const checked = checkedFromConfidences(
    item.docType,
    item.fieldConfidence,
    resolvePolicy().confidenceThreshold / 100,
  );
  if (!checked)
    return h(
      'span',
      { class: 'conf conf-bar', style: `--conf:${item.confidence ?? 0}` },
      percent(item.confidence),
    );
  const said = describeCheckedFields(checked);
  return h(
    'span',
    {
      class: 'conf conf-bar conf-checked',
      style: `--conf:${Math.round((100 * checked.checked) / checked.required)}`,
      title: said,
      'aria-label': said,
    },
    `${checked.checked} of ${checked.required}`,
  );
};

/** What the queue is opened with: news to show, who is signed in, which row to start on. */
export interface QueueOptions {
  notice?: string;
  user?: string;
  /** The review to select first (after a decision: the next one to take); the top one otherwise. */
  prefer?: (items: readonly ReviewSummary[]) => string | undefined;
}

/**
 * The review queue, most urgent first (the API's order: priority, then longest waiting): file,
 * confidence, reasons, the due time counting down and who holds a claim, since when and until
 * when. Arrows or j/k move, Enter (or a click) opens; nothing is claimed until a review is opened.
 */
export const queueView = (api: Api, open: (id: string) => void, options: QueueOptions = {}): View => {
  const { notice, user } = options;
  let first = true;
  let items: ReviewSummary[] = [];
  let truncated = false;
  let selected = 0;
  const body = h('tbody');
  const status = h('p', { class: 'queue-status', role: 'status' }, 'Loading the queue…');
  const element = h(
    'section',
    { class: 'queue' },
    h('header', { class: 'view-head' }, h('h1', {}, 'Review queue'), status),
    notice ? h('div', { class: 'banner info', role: 'status' }, notice) : null,
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'queue-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['Priority', 'Document', 'Checked', 'Reasons', 'Due in', 'Claimed by'].map((t) =>
              h('th', { scope: 'col' }, t),
            ),
          ),
        ),
        body,
      ),
    ),
    h('footer', { class: 'keys' }, '↑/↓ or j/k move · Enter open · r refresh'),
  );

  const select = (index: number, focus = false) => {
    selected = Math.max(0, Math.min(items.length - 1, index));
    body.querySelectorAll('tr').forEach((tr, i) => {
      tr.classList.toggle('selected', i === selected);
      tr.setAttribute('aria-selected', String(i === selected));
      if (i !== selected) return;
      tr.scrollIntoView({ block: 'nearest' });
      if (focus) tr.focus();
    });
  };

  const render = () => {
    body.replaceChildren(
      ...items.map((item, index) => {
        const due = countdown(item.dueAt);
        return h(
          'tr',
          {
            'data-id': item.id,
            tabindex: 0,
            'aria-label': `${fileName(item.sourceKey)}: open the review`,
            onclick: () => open(item.id),
            onfocus: () => select(index),
          },
          h('td', { class: 'num' }, item.priority),
          h(
            'td',
            { class: 'doc' },
            h('span', { class: 'doc-name' }, fileName(item.sourceKey)),
            h('span', { class: 'doc-type' }, `${item.docType ?? 'document'} · ${item.id}`),
            // Under a review policy: the step and its role; an escalated review heads the queue.
            item.step
              ? h(
                  'span',
                  { class: item.step.escalatedFrom ? 'doc-step escalated' : 'doc-step' },
                  `${item.step.escalatedFrom ? `escalated from ${item.step.escalatedFrom} · ` : ''}step ${item.step.step} (${item.step.role})`,
                )
              : null,
          ),
          h('td', { class: 'num' }, confidenceCell(item)),
          h(
            'td',
            { class: 'reason-chips' },
            ...item.reasons.map((r) =>
              h('span', { class: 'chip', title: r.message }, r.code.replace(/_/g, ' ')),
            ),
          ),
          h('td', { class: `due due-${due.level}`, 'data-due': item.dueAt ?? '' }, due.text),
          h(
            'td',
            { class: 'claim', 'data-claim': JSON.stringify(claimOf(item)) },
            claimText(item, Date.now(), user),
          ),
        );
      }),
    );
    // A cut-off queue must not pass for the whole: its count would understate the backlog.
    status.textContent =
      items.length === 0
        ? 'Nothing to review. New documents appear here.'
        : truncated
          ? `More than ${items.length} documents waiting: showing the first ${items.length}, most urgent first`
          : `${items.length} document(s) waiting`;
    if (items.length === 0) return;
    if (first) {
      // Coming back from a decision, the next review to take is selected and focused: Enter opens
      // (and claims) it, nothing was claimed for the reviewer meanwhile.
      const preferred = options.prefer?.(items);
      const index = preferred ? items.findIndex((i) => i.id === preferred) : -1;
      select(Math.max(index, 0), true);
      first = false;
    } else select(selected);
  };

  const load = async () => {
    try {
      ({ items, truncated } = await api.reviews());
      render();
    } catch (error) {
      status.textContent = (error as Error).message;
    }
  };

  const ticker = window.setInterval(() => {
    for (const cell of body.querySelectorAll<HTMLElement>('[data-due]')) {
      const due = countdown(cell.dataset.due || undefined);
      cell.textContent = due.text;
      cell.className = `due due-${due.level}`;
    }
    // A claim runs out while the queue is open: the cell says so without a reload.
    for (const cell of body.querySelectorAll<HTMLElement>('[data-claim]')) {
      cell.textContent = claimText(JSON.parse(cell.dataset.claim ?? '{}'), Date.now(), user);
    }
  }, 1000);
  const refresher = window.setInterval(() => void load(), 15_000);
  void load();

  return {
    element,
    onKey: (event) => {
      if (isTyping(event) || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'ArrowDown' || event.key === 'j') select(selected + 1);
      else if (event.key === 'ArrowUp' || event.key === 'k') select(selected - 1);
      else if (event.key === 'Enter' && items[selected]) open((items[selected] as ReviewSummary).id);
      else if (event.key === 'r') void load();
      else return;
      event.preventDefault();
    },
    dispose: () => {
      window.clearInterval(ticker);
      window.clearInterval(refresher);
    },
  };
};
