import { ForbiddenError, UnauthorizedError } from '@aws-lambda-powertools/event-handler/http';
import { Claims, type Principal, ROLES, type Role } from '../shared/principal.js';

/** HTTP API passes array claims as "[a b]" strings; locally they may be real arrays. */
const groupsOf = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string') return [];
  return value
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .filter(Boolean);
};

/**
 * Reads the principal from `requestContext.authorizer.jwt.claims` (API Gateway HTTP API v2).
 * No claims, or no tenant, is 401: the authorizer should have refused the request already.
 */
export const principalOf = (event: unknown): Principal => {
  const claims = (
    event as { requestContext?: { authorizer?: { jwt?: { claims?: Record<string, unknown> } } } }
  )?.requestContext?.authorizer?.jwt?.claims;
  const user = claims?.[Claims.username] ?? claims?.username ?? claims?.sub;
  const tenant = claims?.[Claims.tenant];
  if (typeof user !== 'string' || typeof tenant !== 'string' || tenant === '') {
    const missing = [
      typeof user !== 'string' && 'no user',
      (typeof tenant !== 'string' || tenant === '') && 'no tenant',
    ]
      .filter(Boolean)
      .join(' and ');
    throw new UnauthorizedError(
      `Sign in again: the token has ${missing}. Use a token with both: locally ` +
        '`docket token create --user you --role reviewer --tenant acme`, on AWS an ID token of a user with a tenant.',
    );
  }
  const groups = groupsOf(claims?.[Claims.groups]);
  const roles = groups.filter((g): g is Role => (ROLES as string[]).includes(g));
  return { user, roles, groups, tenant };
};

/** 403 unless the principal has one of the roles (an admin may do anything a reviewer may). */
export const requireRole = (principal: Principal, role: Role): void => {
  if (principal.roles.includes('admin') || principal.roles.includes(role)) return;
  throw new ForbiddenError(
    `This needs the ${role} role; ${principal.user} has ${principal.roles.join(', ') || 'none'}. ` +
      `Ask an admin for a token with the ${role} role (locally: docket token create --role ${role}).`,
  );
};
