import { CognitoSignInError } from './errors.js';

/** How the sign-in gets what only the person has: a TOTP code, and a place to show a new secret. */
export interface MfaPrompts {
  /** The current 6-digit code of the user's authenticator app. */
  code: () => Promise<string>;
  /** First sign-in: shows the secret (and its otpauth:// URI) to add to an authenticator app. */
  showSecret: (secret: string, otpauthUri: string) => void;
}

/** Options of `cognitoSignIn`. */
export interface CognitoSignInOptions {
  region: string;
  clientId: string;
  username: string;
  password: string;
  /** Required by a pool that requires MFA (Docket's does). */
  mfa?: MfaPrompts;
  /** Cognito's endpoint; default the region's. (`AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER`.) */
  endpoint?: string;
}

/** What Cognito answers to InitiateAuth, RespondToAuthChallenge and the software-token calls. */
interface CognitoAnswer {
  AuthenticationResult?: { IdToken?: string };
  ChallengeName?: string;
  Session?: string;
  SecretCode?: string;
  Status?: string;
  message?: string;
  __type?: string;
}

const SIX_DIGITS = /^\d{6}$/;

/**
 * Signs a user in to the stack's user pool app client with `USER_PASSWORD_AUTH` (the client
 * allows it; the request goes over TLS) and returns the ID token, whose claims carry the groups
 * and `custom:tenant` the review API reads. The pool requires TOTP MFA, so the usual answer is a
 * `SOFTWARE_TOKEN_MFA` challenge, answered with a code from `mfa.code`; a user without an
 * authenticator yet gets `MFA_SETUP`, which associates one (the secret goes to `mfa.showSecret`),
 * verifies its first code, and signs in. Cognito's JSON API is called directly: a handful of
 * requests does not justify another SDK client.
 */
export const cognitoSignIn = async (options: CognitoSignInOptions): Promise<string> => {
  const endpoint = options.endpoint ?? `https://cognito-idp.${options.region}.amazonaws.com/`;
  const call = async (action: string, body: Record<string, unknown>): Promise<CognitoAnswer> => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `AWSCognitoIdentityProviderService.${action}`,
      },
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as CognitoAnswer;
    if (!response.ok) {
      throw new CognitoSignInError(
        `Cognito refused ${action}: ${answer.message ?? answer.__type ?? response.status}.`,
      );
    }
    return answer;
  };
  const code = async (mfa: MfaPrompts): Promise<string> => {
    const value = (await mfa.code()).trim();
    if (!SIX_DIGITS.test(value)) {
      throw new CognitoSignInError('An MFA code is the 6 digits your authenticator app shows now.');
    }
    return value;
  };
  const needMfa = (challenge: string): MfaPrompts => {
    if (!options.mfa) {
      throw new CognitoSignInError(`Cognito asks for ${challenge}; give --mfa-code, or run in a terminal.`);
    }
    return options.mfa;
  };

  let answer = await call('InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: options.clientId,
    AuthParameters: { USERNAME: options.username, PASSWORD: options.password },
  });
  if (answer.ChallengeName === 'MFA_SETUP') {
    const mfa = needMfa(answer.ChallengeName);
    const associated = await call('AssociateSoftwareToken', { Session: answer.Session });
    if (!associated.SecretCode) throw new CognitoSignInError('Cognito gave no authenticator secret.');
    const label = encodeURIComponent(`Docket:${options.username}`);
    mfa.showSecret(
      associated.SecretCode,
      `otpauth://totp/${label}?secret=${associated.SecretCode}&issuer=Docket`,
    );
    const verified = await call('VerifySoftwareToken', {
      Session: associated.Session,
      UserCode: await code(mfa),
      FriendlyDeviceName: 'docket',
    });
    if (verified.Status !== 'SUCCESS') {
      throw new CognitoSignInError(
        'Cognito did not accept the code; sign in again to set the authenticator up.',
      );
    }
    answer = await call('RespondToAuthChallenge', {
      ClientId: options.clientId,
      ChallengeName: 'MFA_SETUP',
      Session: verified.Session,
      ChallengeResponses: { USERNAME: options.username },
    });
  } else if (answer.ChallengeName === 'SOFTWARE_TOKEN_MFA') {
    const mfa = needMfa(answer.ChallengeName);
    answer = await call('RespondToAuthChallenge', {
      ClientId: options.clientId,
      ChallengeName: 'SOFTWARE_TOKEN_MFA',
      Session: answer.Session,
      ChallengeResponses: { USERNAME: options.username, SOFTWARE_TOKEN_MFA_CODE: await code(mfa) },
    });
  }
  if (answer.ChallengeName) {
    throw new CognitoSignInError(
      `Cognito asks for ${answer.ChallengeName}; finish it once (e.g. set a permanent password with \`aws cognito-idp admin-set-user-password --permanent\`), then try again.`,
    );
  }
  const token = answer.AuthenticationResult?.IdToken;
  if (!token) throw new CognitoSignInError('Cognito answered without an ID token.');
  return token;
};
