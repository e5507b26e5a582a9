import { h } from './dom.js';

/**
 * The banner over a review: one message at a time (an error, a warning, news), with the HTTP
 * status it answers in `data-status` and a button when there is something to do about it.
 */
export const messageBanner = () => {
  const element = h('div', { class: 'banner', role: 'alert', hidden: true });
  /** Shows a message, with a button when there is something to do about it (take over, try again). */
  const say = (
    text: string,
    kind: 'error' | 'info' | 'warn',
    status?: number,
    action?: HTMLButtonElement,
  ): void => {
    element.replaceChildren(text, ...(action ? [' ', action] : []));
    element.className = `banner ${kind}`;
    element.hidden = false;
    if (status !== undefined) element.dataset.status = String(status);
    else delete element.dataset.status;
  };
  return { element, say };
};
