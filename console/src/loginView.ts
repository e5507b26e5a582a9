import type { Api } from './api.js';
import { ApiError } from './api.js';
import { h } from './dom.js';
import { type Session, saveSession, sessionFrom } from './session.js';
import type { View } from './view.js';

/**
 * Sign-in with a bearer token: locally one from `docket token create`, on AWS a Cognito ID token.
 * The token is checked against the API before it is kept.
 */
export const loginView = (api: Api, signedIn: (session: Session) => void, message?: string): View => {
  const token = h('textarea', {
    id: 'token',
    rows: 4,
    placeholder: 'eyJhbGciOi…',
    'aria-label': 'token',
    spellcheck: 'false',
  });
  const status = h('p', { class: 'login-status', role: 'alert' }, message ?? '');
  const submit = async (event: Event) => {
    event.preventDefault();
    const session = sessionFrom(token.value);
    if (!session) {
      status.textContent = 'That is not a token. Paste the whole output of `docket token create`.';
      return;
    }
    saveSession(session);
    try {
      // Only the token is checked here: one review is enough, the queue reads the rest.
      await api.reviewPage({ limit: 1 });
      signedIn(session);
    } catch (error) {
      sessionStorage.clear();
      status.textContent =
        error instanceof ApiError && error.status === 401
          ? `The API refused this token: ${error.message}`
          : error instanceof ApiError && error.status === 403
            ? `${error.message} Ask for a reviewer token.`
            : (error as Error).message;
    }
  };
  const element = h(
    'section',
    { class: 'login' },
    h(
      'form',
      { class: 'login-card', onsubmit: (e) => void submit(e) },
      h('h1', {}, 'Docket review'),
      h('label', { for: 'token' }, 'Your token'),
      token,
      h(
        'p',
        { class: 'hint' },
        'Locally: ',
        h('code', {}, 'docket token create --user you --role reviewer --tenant acme'),
      ),
      h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
      status,
    ),
  );
  queueMicrotask(() => token.focus());
  return { element };
};
