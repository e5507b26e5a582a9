import { UsageError } from './errors.js';

/** Longest user name a token carries (Cognito's own limit on a user name). */
export const MAX_USER_LENGTH = 128;
/** Longest lifetime of a local token: a week of review. */
export const MAX_EXPIRY_SECONDS = 7 * 24 * 3600;

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/**
 * The user a token is for, checked before anything is signed: not empty or blank, no control
 * characters (a newline in a name forges lines in logs and the transition log's actor), no
 * surrounding spaces, at most 128 characters.
 */
export const checkUser = (user: string): string => {
  if (user.trim() === '') throw new UsageError('--user must name someone; got an empty name.');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(user))
    throw new UsageError(
      `--user must not contain control characters or line breaks; got ${JSON.stringify(user)}.`,
    );
  if (user !== user.trim())
    throw new UsageError(`--user must not start or end with spaces; got ${JSON.stringify(user)}.`);
  if (user.length > MAX_USER_LENGTH)
    throw new UsageError(`--user is ${user.length} characters; at most ${MAX_USER_LENGTH} are allowed.`);
  return user;
};

/** A lifetime like `30m`, `12h` or `7d`: more than zero and at most 7 days. */
export const checkExpiresIn = (value: string): string => {
  const match = /^(\d{1,7})([smhd])$/.exec(value);
  if (!match)
    throw new UsageError(`--expires-in takes a number and s, m, h or d (e.g. 12h); got "${value}".`);
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
  if (seconds <= 0)
    throw new UsageError(
      `--expires-in must be more than zero; got "${value}" (a token that is already expired).`,
    );
  if (seconds > MAX_EXPIRY_SECONDS)
    throw new UsageError(`--expires-in is at most 7d; got "${value}". Mint a new token when it runs out.`);
  return value;
};
