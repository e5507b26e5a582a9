import { UsageError } from './errors.js';

/** The tenant segment of upload keys, checked with the one key policy so no upload is refused later. */
export const checkTenant = async (tenant: string): Promise<string> => {
  const { tenantViolation } = await import('../lambdas/shared/keyPolicy.js');
  const violation = tenantViolation(tenant);
  if (violation) throw new UsageError(`--tenant: ${violation.message}`);
  return tenant;
};
