import { Api } from './api.js';
import { documentView, type Outcome } from './documentView.js';
import { h, mount } from './dom.js';
import { loginView } from './loginView.js';
import { nextReview } from './nextReview.js';
import { queueView } from './queueView.js';
import { clearSession, loadSession } from './session.js';
import type { View } from './view.js';

/**
 * The review console: sign in with a token, work the queue, review one document at a time.
 * Routes are hashes (`#/`, `#/review/{id}`) so the local server needs no routing of its own.
 */
const start = async () => {
  const root = document.getElementById('app') as HTMLElement;
  let session = loadSession();
  // The sign-in screen keeps a token before `session` is set, to try it: read it from storage then.
  const api = new Api(
    await Api.discoverBase(),
    () => (session ?? loadSession())?.token,
    (message) => {
      // Signed in, and the API no longer takes the token (expired): back to sign-in, saying why.
      if (session) logout(`Please sign in again: ${message}`);
    },
  );
  let current: View | undefined;
  let notice: string | undefined;
  /** The review decided last: the queue then selects the one to take after it. */
  let decided: string | undefined;

  const who = h('span', { class: 'who' });
  const signOut = h('button', { type: 'button', class: 'link', onclick: () => logout() }, 'Sign out');
  const header = h(
    'header',
    { class: 'top' },
    h('a', { class: 'brand', href: '#/' }, 'Docket'),
    h('span', { class: 'grow' }),
    who,
    signOut,
  );
  const main = h('main', { class: 'main' });
  mount(root, header, main);

  const show = (view: View) => {
    current?.dispose?.();
    current = view;
    mount(main, view.element);
  };

  const logout = (message?: string) => {
    clearSession();
    session = undefined;
    route(message);
  };

  /**
   * `n` on a review: open the next one (a key the reviewer pressed, so opening, and claiming, it is
   * theirs to ask for). After a decision: back to the queue with the next review to take selected,
   * claiming nothing: a reviewer who steps away then holds no document.
   */
  const next = async (outcome?: Outcome) => {
    if (outcome) {
      notice = outcome.message;
      decided = outcome.id;
      if (location.hash === '#/') route();
      else location.hash = '#/';
      return;
    }
    try {
      const { items } = await api.reviews();
      const following = nextReview(items, { current: currentId(), user: session?.user, now: Date.now() });
      if (following) {
        location.hash = `#/review/${following.id}`;
        return;
      }
    } catch {
      // The queue shows the error.
    }
    location.hash = '#/';
  };

  const currentId = () => /^#\/review\/(.+)$/.exec(location.hash)?.[1];

  const route = (message?: string) => {
    who.textContent = session ? `${session.user} · ${session.tenant}` : '';
    signOut.hidden = !session;
    if (!session) {
      show(
        loginView(
          api,
          (s) => {
            session = s;
            route();
          },
          message,
        ),
      );
      return;
    }
    const id = currentId();
    const said = notice;
    notice = undefined;
    if (id) {
      const view = documentView(api, decodeURIComponent(id), {
        back: () => (location.hash = '#/'),
        next: (o) => void next(o),
        user: session.user,
      });
      show(view);
      if (said) {
        const info = h('div', { class: 'banner info toast', role: 'status' }, said);
        view.element.prepend(info);
        window.setTimeout(() => info.remove(), 4000);
      }
    } else {
      const after = decided;
      decided = undefined;
      show(
        queueView(api, (open) => (location.hash = `#/review/${open}`), {
          notice: said,
          user: session.user,
          prefer: (items) => nextReview(items, { decided: after, user: session?.user, now: Date.now() })?.id,
        }),
      );
    }
  };

  window.addEventListener('hashchange', () => route());
  window.addEventListener('keydown', (event) => current?.onKey?.(event));
  route();
};

void start();
