import { join } from 'node:path';
import { Claims } from '../../lambdas/shared/principal.js';
import { StackOutputsError, UsageError } from '../errors.js';
import type { Target } from '../target.js';

/** Who uploads: the review API's URL, a bearer token with the uploader role, and its tenant. */
export interface Uploader {
  apiUrl: string;
  token: string;
  tenant: string;
}

/**
 * The uploader `docket upload` acts as. Uploads go through the review API's POST /uploads, which
 * picks the key under the token's tenant. Locally the CLI holds the stack's signing key and mints
 * itself a short uploader token for `--tenant`; against a deployed stack it needs a Cognito ID
 * token of a user in the uploader (or admin) group (`--token` or $DOCKET_TOKEN), and the tenant is
 * that user's: a `--tenant` that says otherwise is refused here rather than by the API.
 */
export const resolveUploader = async (
  target: Target,
  options: { tenant?: string; token?: string; operator: string; env: NodeJS.ProcessEnv },
): Promise<Uploader> => {
  if (!target.apiUrl) {
    throw new StackOutputsError(
      `Stack ${target.name} has no ApiUrl output; uploads go through the review API.`,
    );
  }
  if (target.kind === 'local') {
    const tenant = options.tenant ?? 'default';
    const { loadSigningKey, mintToken } = await import('../../local/auth/localTokens.js');
    const key = await loadSigningKey(join(target.dataDir as string, 'jwt.key'));
    const token = await mintToken(key, { user: options.operator, role: 'uploader', tenant, expiresIn: '1h' });
    return { apiUrl: target.apiUrl, token, tenant };
  }
  const token = options.token ?? options.env.DOCKET_TOKEN;
  if (!token) {
    throw new UsageError(
      'Uploads to a deployed stack go through its review API: pass --token or set $DOCKET_TOKEN to the ID ' +
        'token of a user in the uploader group (docket --stack NAME token create --user U --password-stdin).',
    );
  }
  const { decodeJwt } = await import('jose');
  let tenant: unknown;
  try {
    tenant = decodeJwt(token)[Claims.tenant];
  } catch {
    throw new UsageError('The upload token is not a JWT; use the ID token `docket token create` prints.');
  }
  if (typeof tenant !== 'string') throw new UsageError(`The upload token has no ${Claims.tenant} claim.`);
  if (options.tenant !== undefined && options.tenant !== tenant) {
    throw new UsageError(
      `--tenant ${options.tenant} is not the tenant of the token (${tenant}); an uploader uploads for their own tenant only.`,
    );
  }
  return { apiUrl: target.apiUrl, token, tenant };
};
