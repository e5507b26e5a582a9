import { CognitoSignInError } from './errors.js';

/**
 * Signs a user in to the stack's user pool app client with `USER_PASSWORD_AUTH` (the client
 * allows it; the request goes over TLS) and returns the ID token, whose claims carry the groups
 * and `custom:tenant` the review API reads. Cognito's JSON API is called directly: one request
 * does not justify another SDK client.
 */
export const cognitoSignIn = async (options: {
  region: string;
  clientId: string;
  username: string;
  password: string;
}): Promise<string> => {
  const response = await fetch(`https://cognito-idp.${options.region}.amazonaws.com/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
    },
    body: JSON.stringify({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: options.clientId,
      AuthParameters: { USERNAME: options.username, PASSWORD: options.password },
    }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    AuthenticationResult?: { IdToken?: string };
    ChallengeName?: string;
    message?: string;
    __type?: string;
  };
  if (!response.ok) {
    throw new CognitoSignInError(
      `Cognito refused the sign-in: ${body.message ?? body.__type ?? response.status}.`,
    );
  }
  if (body.ChallengeName) {
    throw new CognitoSignInError(
      `Cognito asks for ${body.ChallengeName}; finish it once (e.g. set a permanent password with \`aws cognito-idp admin-set-user-password --permanent\`), then try again.`,
    );
  }
  const token = body.AuthenticationResult?.IdToken;
  if (!token) throw new CognitoSignInError('Cognito answered without an ID token.');
  return token;
};
