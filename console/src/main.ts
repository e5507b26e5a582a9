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

  const next = async (outcome?: Outcome) => {
    notice = outcome?.message;
    try {
      const { items } = await api.reviews();
      const following = nextReview(items, {
        current: currentId(),
        decided: outcome?.id,
        user: session?.user,
      });
      if (following) {
        location.hash = `#/review/${following.id}`;
        return;
      }
    } catch {
      // The queue shows the error.
    }
    // Setting the hash routes through hashchange; route here only when it would not change.
    if (location.hash === '#/') route();
    else location.hash = '#/';
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
      });
      show(view);
      if (said) {
        const info = h('div', { class: 'banner info toast', role: 'status' }, said);
        view.element.prepend(info);
        window.setTimeout(() => info.remove(), 4000);
      }
    } else show(queueView(api, (open) => (location.hash = `#/review/${open}`), said));
  };

  window.addEventListener('hashchange', () => route());
  window.addEventListener('keydown', (event) => current?.onKey?.(event));
  route();
};

void start();
