/**
 * Who calls Docket's API and what they may do: the same on AWS (Cognito groups and the tenant
 * attribute of the ID token) and locally (tokens `docket token create` mints with the same claims).
 */

/**
 * The groups a user can be in (Cognito groups on AWS, the `role` of a local token): a reviewer
 * reviews, an uploader gets upload links for their tenant, an admin may do anything.
 */
export type Role = 'reviewer' | 'uploader' | 'admin';

/** Every role, in the order the user pool creates its groups. */
export const ROLES: readonly Role[] = ['reviewer', 'uploader', 'admin'];

/** Who calls the API, as the JWT authorizer vouched for them. */
export interface Principal {
  user: string;
  roles: Role[];
  /**
   * Every group the user is in, the built-in roles and the roles review policies name (`finance`,
   * `manager`): a policy's approval step is decided by its role. Absent: the roles alone.
   */
  groups?: string[];
  tenant: string;
}

/** Claim names, the same on AWS (Cognito ID token) and locally (tokens `docket token create` mints). */
export const Claims = {
  groups: 'cognito:groups',
  tenant: 'custom:tenant',
  username: 'cognito:username',
} as const;
