import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { decodeJwt, errors, jwtVerify, SignJWT } from 'jose';
import { Claims, type Role } from '../../lambdas/shared/principal.js';

/** Issuer and audience of local tokens; the API adapter accepts nothing else. */
export const LOCAL_ISSUER = 'docket-local';
export const LOCAL_AUDIENCE = 'docket-review-api';

/** Reads the signing key of this data directory, creating it on first use (mode 600). */
export const loadSigningKey = async (path: string): Promise<Uint8Array> => {
  try {
    return Buffer.from((await readFile(path, 'utf8')).trim(), 'base64url');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const key = randomBytes(32);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, key.toString('base64url'), { mode: 0o600, flag: 'wx' }).catch(async (e) => {
      // Another process created it first: use theirs.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    });
    return Buffer.from((await readFile(path, 'utf8')).trim(), 'base64url');
  }
};

/** Who a token is for. */
export interface TokenSubject {
  user: string;
  role: Role;
  /** Further groups: the roles review policies name (`finance`, `manager`), as Cognito groups are. */
  groups?: readonly string[];
  tenant: string;
  /** Lifetime, e.g. "12h" (default). */
  expiresIn?: string;
}

/**
 * Mints a bearer token with the claim shape of a Cognito ID token (`cognito:username`,
 * `cognito:groups`, `custom:tenant`), so the API sees the same claims locally and on AWS.
 */
export const mintToken = async (key: Uint8Array, subject: TokenSubject): Promise<string> =>
  new SignJWT({
    [Claims.username]: subject.user,
    [Claims.groups]: [subject.role, ...(subject.groups ?? []).filter((g) => g !== subject.role)],
    [Claims.tenant]: subject.tenant,
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject.user)
    .setIssuer(LOCAL_ISSUER)
    .setAudience(LOCAL_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(subject.expiresIn ?? '12h')
    .sign(key);

/** Why a token was refused, for the 401 body. */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidLocalToken';
}

/** Whose token it says it is, when it can be read at all (never trusted: only for the message). */
const claimedUser = (token: string): string | undefined => {
  try {
    const user = decodeJwt(token)[Claims.username];
    return typeof user === 'string' ? user.slice(0, 64) : undefined;
  } catch {
    return undefined;
  }
};

/** Why a token was refused, in words: expired (when, whose), or not this stack's. */
const whyRefused = (token: string, error: unknown): string => {
  const user = claimedUser(token);
  const whose = user ? `The token of ${user}` : 'The token';
  if (error instanceof errors.JWTExpired) {
    const exp = error.payload.exp;
    return `${whose} expired${typeof exp === 'number' ? ` at ${new Date(exp * 1000).toISOString()}` : ''}`;
  }
  return user
    ? `${whose} was not signed by this stack (made for another data directory, or altered)`
    : 'The bearer token is not a token this stack made (it cannot be read as one)';
};

/** Verifies a bearer token as API Gateway's JWT authorizer would and returns its claims. */
export const verifyToken = async (key: Uint8Array, token: string): Promise<Record<string, unknown>> => {
  try {
    const { payload } = await jwtVerify(token, key, { issuer: LOCAL_ISSUER, audience: LOCAL_AUDIENCE });
    return payload as Record<string, unknown>;
  } catch (error) {
    throw new InvalidTokenError(`${whyRefused(token, error)}; mint a new one with \`docket token create\`.`, {
      cause: error,
    });
  }
};
