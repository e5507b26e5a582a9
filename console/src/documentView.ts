import { type Api, ApiError, type ReviewDetail } from './api.js';
import { type ClaimLine, claimHeld, claimText } from './claimText.js';
import { comparisonPanel } from './comparisonPanel.js';
import { factItems, reasonItems } from './documentFacts.js';
import { h, isTyping } from './dom.js';
import { fieldsPanel } from './fieldsPanel.js';
import { countdown, fileName } from './format.js';
import { messageBanner } from './messageBanner.js';
import { PdfView } from './pdfView.js';
import { refusal } from './refusal.js';
import { timeline } from './timeline.js';
import type { View } from './view.js';

/** What happened to a review, for the next screen to say. */
export type Outcome = { id: string; message: string };

/** How often the reviewer's own activity renews their claim, at most (a claim lasts minutes). */
const RENEW_EVERY_MS = 60_000;

/**
 * One review: the PDF beside the extracted fields, reasons at the top, history at the bottom.
 * Opening it claims it (which also restarts the review's timeout); when another reviewer holds it,
 * a banner names them and offers to take it over. The claim lasts a while from the reviewer's
 * last activity: typing, clicking or a key here renews it (at most once a minute); a reviewer who
 * walks away loses it without anyone taking it over. Approve sends the edits as a correction when
 * there are any; reject asks for a reason.
 */
export const documentView = (
  api: Api,
  id: string,
  nav: { back: () => void; next: (outcome?: Outcome) => void; user?: string },
): View => {
  const { element: banner, say } = messageBanner();
  const title = h('h1', { class: 'doc-title' }, 'Loading…');
  const facts = h('div', { class: 'doc-facts' });
  const due = h('span', { class: 'due' });
  const claimed = h('span', { class: 'claimed' });
  const reasons = h('ul', { class: 'reasons', 'aria-label': 'reasons for review' });
  // A region of its own, focusable: keyboard users scroll the PDF with the arrow keys.
  const pdfPane = h('div', { class: 'pdf-pane', role: 'region', 'aria-label': 'the document', tabindex: 0 });
  const side = h('div', { class: 'side-fields' });
  const history = h('footer', { class: 'doc-history' }, h('span', { class: 'muted' }, 'Loading history…'));
  const reason = h('input', {
    type: 'text',
    class: 'reason',
    placeholder: 'Why is it rejected?',
    'aria-label': 'rejection reason',
    maxlength: 1000,
  });
  const approveButton = h(
    'button',
    { type: 'button', class: 'primary', 'data-action': 'approve', title: 'a, or Ctrl+Enter' },
    'Approve',
  );
  const rejectButton = h(
    'button',
    { type: 'button', class: 'danger', 'data-action': 'reject', title: 'r' },
    'Reject…',
  );
  const confirmReject = h(
    'button',
    { type: 'button', class: 'danger', 'data-action': 'confirm-reject' },
    'Reject',
  );
  const rejectForm = h(
    'div',
    { class: 'reject-form', hidden: true },
    reason,
    confirmReject,
    h('button', { type: 'button', onclick: () => (rejectForm.hidden = true) }, 'Cancel'),
  );
  const nextButton = h(
    'button',
    { type: 'button', 'data-action': 'next', title: 'n', onclick: () => nav.next() },
    'Next ›',
  );
  const actions = h('div', { class: 'actions' }, approveButton, rejectButton, nextButton, rejectForm);

  let detail: ReviewDetail | undefined;
  let panel: ReturnType<typeof fieldsPanel> | undefined;
  let dueAt: string | undefined;
  let held: ClaimLine = {};
  let renewedAt = 0;
  let busy = false;
  let closed = false;
  const pdf = new PdfView(pdfPane);

  const close = () => {
    closed = true;
    for (const b of [approveButton, rejectButton, confirmReject]) b.disabled = true;
    rejectForm.hidden = true;
    panel?.disable();
  };

  const tick = () => {
    const left = countdown(dueAt);
    due.textContent = dueAt ? `due in ${left.text}` : '';
    due.className = `due due-${left.level}`;
    claimed.textContent = held.claimedBy ? `claimed by ${claimText(held, Date.now(), nav.user)}` : '';
  };
  const ticker = window.setInterval(tick, 1000);

  /** After a 409, names the decision that won (the API's message may only say the new state). */
  const sayWhoDecided = async () => {
    const decision = await api
      .review(id)
      .then((d) => d.workflow.review?.decision)
      .catch(() => undefined);
    if (!decision) return;
    say(
      `Someone else got here first: ${decision.reviewer} decided "${decision.decision}" at ${new Date(decision.at).toLocaleTimeString()}. Nothing you entered was saved.`,
      'error',
      409,
    );
  };

  const decide = async (decision: 'approve' | 'reject') => {
    if (busy || closed || !panel || !detail) return;
    let body: Parameters<Api['decide']>[1];
    if (decision === 'reject') {
      if (rejectForm.hidden) {
        rejectForm.hidden = false;
        reason.focus();
        return;
      }
      if (!reason.value.trim()) {
        say('A rejection needs a reason.', 'warn');
        reason.focus();
        return;
      }
      body = { decision: 'reject', reason: reason.value.trim() };
    } else {
      const { corrections, invalid, missingType } = panel.corrections();
      if (missingType) {
        say('Choose what this document is (an invoice or a contract) and fill in its fields first.', 'warn');
        return;
      }
      const docType = panel.docType();
      if (invalid > 0) {
        say(`Fix the ${invalid} marked field(s) first.`, 'warn');
        return;
      }
      body =
        Object.keys(corrections).length > 0 || docType
          ? { decision: 'correct', corrections, ...(docType && { docType }) }
          : { decision: 'approve' };
    }
    busy = true;
    actions.classList.add('busy');
    try {
      await api.decide(id, body);
      const name = fileName(detail.workflow.source?.key);
      const done =
        body.decision === 'reject'
          ? 'Rejected'
          : body.decision === 'correct'
            ? `Corrected (${Object.keys(body.corrections ?? {}).join(', ')}) and approved`
            : 'Approved';
      close();
      nav.next({ id, message: `${done} ${name}.` });
    } catch (error) {
      const { text, final } = refusal(error);
      say(text, final ? 'error' : 'warn', error instanceof ApiError ? error.status : undefined);
      if (error instanceof ApiError && error.status === 422) panel.showIssues(error.issues);
      if (final) close();
      if (final && error instanceof ApiError && error.status === 409) await sayWhoDecided();
    } finally {
      busy = false;
      actions.classList.remove('busy');
    }
  };
  approveButton.addEventListener('click', () => void decide('approve'));
  rejectButton.addEventListener('click', () => void decide('reject'));
  confirmReject.addEventListener('click', () => void decide('reject'));
  reason.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') void decide('reject');
    if (event.key === 'Escape') rejectForm.hidden = true;
  });

  /**
   * Claims the review. Another reviewer's claim is not the end: the view stays open and offers to
   * take it over; a refusal that may pass (still being set up) offers to try again.
   */
  const claim = async (takeOver = false): Promise<void> => {
    try {
      const granted = await api.claim(id, { takeOver });
      dueAt = granted.dueAt ?? dueAt;
      held = granted;
      renewedAt = Date.now();
      tick();
      if (granted.takenOverFrom) say(`You took this review over from ${granted.takenOverFrom}.`, 'info');
      else if (granted.lapsedClaimOf)
        say(`${granted.lapsedClaimOf}'s claim on this review had run out; it is yours now.`, 'info');
      // A retry that went through: the refusal it answered is over.
      else if (banner.querySelector('[data-action="retry-claim"]')) banner.hidden = true;
    } catch (error) {
      const { text, final, claimedBy } = refusal(error);
      const status = error instanceof ApiError ? error.status : undefined;
      if (final) {
        say(text, 'error', status);
        close();
        return;
      }
      if (claimedBy && error instanceof ApiError) {
        held = { claimedBy, ...(error.details as ClaimLine) };
        tick();
      }
      const action = claimedBy
        ? h(
            'button',
            { type: 'button', 'data-action': 'take-over', onclick: () => void claim(true) },
            'Take over',
          )
        : h(
            'button',
            { type: 'button', 'data-action': 'retry-claim', onclick: () => void claim(takeOver) },
            'Try again',
          );
      say(text, 'warn', status, action);
    }
  };

  const load = async () => {
    try {
      detail = await api.review(id);
    } catch (error) {
      title.textContent = id;
      say(refusal(error).text, 'error', error instanceof ApiError ? error.status : undefined);
      close();
      return;
    }
    const w = detail.workflow;
    title.textContent = fileName(w.source?.key);
    facts.replaceChildren(...factItems(detail), due, claimed);
    reasons.replaceChildren(...reasonItems(w));
    dueAt = w.review?.dueAt;
    held = w.review ?? {};
    tick();
    panel = fieldsPanel(detail, (source, value) => void pdf.highlight(source, value));
    side.replaceChildren(...[comparisonPanel(detail), panel.element].filter((e) => e !== null));
    if (w.state !== 'review_required' || w.review?.decision) {
      const d = w.review?.decision;
      say(
        d
          ? `${d.reviewer} already decided "${d.decision}" at ${new Date(d.at).toLocaleString()}.`
          : `This document is ${w.state}; there is nothing to review.`,
        'info',
        409,
      );
      close();
    } else await claim();
    if (detail.pdfUrl) {
      pdf
        .load(detail.pdfUrl)
        .catch((error: Error) => pdfPane.replaceChildren(h('p', { class: 'muted' }, error.message)));
    } else pdfPane.replaceChildren(h('p', { class: 'muted' }, 'No PDF is stored for this workflow.'));
    api
      .history(id)
      .then((h2) => history.replaceChildren(timeline(h2.entries)))
      .catch((error: Error) => history.replaceChildren(h('span', { class: 'muted' }, error.message)));
  };
  void load();

  /** `e`: into the first field that needs the reviewer (missing, then doubtful), else the first. */
  const editFirst = () => {
    const field =
      side.querySelector('.field.conf-missing') ??
      side.querySelector('.field.conf-low') ??
      side.querySelector('.field');
    field
      ?.querySelector<HTMLElement>('input:not([disabled]), textarea:not([disabled]), select:not([disabled])')
      ?.focus();
  };

  /**
   * The reviewer is at work on this review: renew their claim if it is theirs and was last renewed
   * a while ago. A claim someone else holds, or one being renewed, is left alone; a failed renewal
   * is said when the reviewer next acts (a decision answers it).
   */
  const active = () => {
    if (closed || busy || held.claimedBy !== nav.user || !claimHeld(held, Date.now())) return;
    if (Date.now() - renewedAt < RENEW_EVERY_MS) return;
    renewedAt = Date.now();
    api
      .claim(id)
      .then((granted) => {
        held = granted;
        dueAt = granted.dueAt ?? dueAt;
        tick();
      })
      .catch(() => undefined);
  };

  const element = h(
    'section',
    { class: 'document', 'data-id': id, onkeydown: active, oninput: active, onpointerdown: active },
    h(
      'header',
      { class: 'doc-head' },
      h('button', { type: 'button', class: 'back', title: 'Esc', onclick: () => nav.back() }, '‹ Queue'),
      title,
      facts,
    ),
    banner,
    reasons,
    h('div', { class: 'doc-body' }, pdfPane, h('aside', { class: 'side' }, side, actions)),
    history,
    h(
      'footer',
      { class: 'keys' },
      'e edit the first field to check · Tab next field · a approve · r reject · n next · Esc queue · Ctrl+Enter approve while editing',
    ),
  );

  return {
    element,
    onKey: (event) => {
      active();
      if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
        event.preventDefault();
        void decide('approve');
        return;
      }
      if (isTyping(event) || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'a') void decide('approve');
      else if (event.key === 'r') void decide('reject');
      else if (event.key === 'n') nav.next();
      else if (event.key === 'e') editFirst();
      else if (event.key === 'Escape') nav.back();
      else return;
      event.preventDefault();
    },
    dispose: () => {
      window.clearInterval(ticker);
      pdf.destroy();
    },
  };
};
