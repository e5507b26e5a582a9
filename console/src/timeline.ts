import type { HistoryEntry } from './api.js';
import { h } from './dom.js';
import { duration } from './format.js';

/** The transition log as a strip of steps: states, who moved it, how long each state lasted. */
export const timeline = (entries: readonly HistoryEntry[]): HTMLElement =>
  h(
    'ol',
    { class: 'timeline', 'aria-label': 'history' },
    ...entries.map((e) =>
      h(
        'li',
        {
          class: `step step-${e.to}${e.error ? ' step-error' : ''}`,
          title: e.error ? `${e.error.type}: ${e.error.message}` : `${e.event} at ${e.at}`,
        },
        h('span', { class: 'step-state' }, e.to.replace(/_/g, ' ')),
        h('span', { class: 'step-meta' }, `${e.event} · ${e.actor}`),
        h(
          'span',
          { class: 'step-time' },
          `${new Date(e.at).toLocaleTimeString()} · after ${duration(e.durationMs)}`,
        ),
      ),
    ),
  );
