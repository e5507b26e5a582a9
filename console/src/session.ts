/** Who is signed in, read from the token (the server verifies it; this is for display). */
export interface Session {
  token: string;
  user: string;
  tenant: string;
  roles: string[];
  /** Epoch ms, when the token says. */
  expiresAt?: number;
}

const KEY = 'docket.token';

const decodePayload = (token: string): Record<string, unknown> | undefined => {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    return JSON.parse(json) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/** Reads a token's claims: the same names locally and on AWS (Cognito ID token). */
export const sessionFrom = (token: string): Session | undefined => {
  const claims = decodePayload(token.trim());
  if (!claims) return undefined;
  const groups = claims['cognito:groups'];
  return {
    token: token.trim(),
    user: String(claims['cognito:username'] ?? claims.username ?? claims.sub ?? 'unknown'),
    tenant: String(claims['custom:tenant'] ?? ''),
    roles: Array.isArray(groups) ? groups.map(String) : typeof groups === 'string' ? [groups] : [],
    ...(typeof claims.exp === 'number' && { expiresAt: claims.exp * 1000 }),
  };
};

/** The session of this tab (sessionStorage: closing the tab signs out). */
export const loadSession = (): Session | undefined => {
  const token = sessionStorage.getItem(KEY);
  const session = token ? sessionFrom(token) : undefined;
  if (session?.expiresAt && session.expiresAt <= Date.now()) {
    sessionStorage.removeItem(KEY);
    return undefined;
  }
  return session;
};

/** Keeps the token for this tab. */
export const saveSession = (session: Session): void => sessionStorage.setItem(KEY, session.token);

/** Signs out. */
export const clearSession = (): void => sessionStorage.removeItem(KEY);
