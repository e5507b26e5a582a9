import { InvalidTokenError } from './errors.js';

/** AWS's page size when `maxResults` is 0 or absent. */
export const DEFAULT_PAGE_SIZE = 100;

/**
 * One page of `items`. The token carries the offset and the operation it belongs to, so a token
 * from another list (or a made-up one) is refused with `InvalidToken`, as AWS does.
 */
export const paginate = <T>(
  items: readonly T[],
  scope: string,
  maxResults: number | undefined,
  nextToken: string | undefined,
): { page: T[]; nextToken?: string } => {
  const size = maxResults === undefined || maxResults === 0 ? DEFAULT_PAGE_SIZE : maxResults;
  const offset = nextToken === undefined ? 0 : decode(nextToken, scope);
  const page = items.slice(offset, offset + size);
  const next = offset + size;
  return next < items.length ? { page, nextToken: encode(next, scope) } : { page };
};

const encode = (offset: number, scope: string): string =>
  Buffer.from(JSON.stringify({ offset, scope })).toString('base64url');

const decode = (token: string, scope: string): number => {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'offset' in parsed &&
      'scope' in parsed &&
      Number.isInteger(parsed.offset) &&
      (parsed.offset as number) >= 0 &&
      parsed.scope === scope
    ) {
      return parsed.offset as number;
    }
  } catch {
    // Falls through to the same answer as a well-formed token for another list.
  }
  throw new InvalidTokenError('Invalid pagination token: it was not issued for this list');
};
