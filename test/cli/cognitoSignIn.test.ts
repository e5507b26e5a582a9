import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cognitoSignIn } from '../../cli/cognitoSignIn.js';

/**
 * Cognito cannot be emulated locally: these tests stand a stub of its JSON API in for it, which
 * records each call (X-Amz-Target action and body) and answers from a script, as Cognito
 * documents the answers of InitiateAuth, RespondToAuthChallenge, AssociateSoftwareToken and
 * VerifySoftwareToken.
 */
type Script = Record<string, (body: Record<string, unknown>) => [number, Record<string, unknown>]>;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const stubCognito = async (script: Script) => {
  const calls: { action: string; body: Record<string, unknown> }[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => {
      text += c.toString('utf8');
    });
    req.on('end', () => {
      const action = String(req.headers['x-amz-target']).replace('AWSCognitoIdentityProviderService.', '');
      const body = JSON.parse(text) as Record<string, unknown>;
      calls.push({ action, body });
      const [status, answer] = script[action]?.(body) ?? [400, { __type: 'InvalidParameterException' }];
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, calls };
};

const signIn = (endpoint: string, mfa?: { codes: string[]; shown: string[] }) =>
  cognitoSignIn({
    region: 'eu-west-1',
    clientId: 'client-1',
    username: 'rita',
    password: 'pw',
    endpoint,
    ...(mfa && {
      mfa: {
        code: async () => mfa.codes.shift() ?? '',
        showSecret: (secret: string, uri: string) => mfa.shown.push(secret, uri),
      },
    }),
  });

describe('docket token create --stack: Cognito MFA challenges (Cognito boundary stubbed: it cannot run locally)', () => {
  it('answers SOFTWARE_TOKEN_MFA with the code and returns the ID token', async () => {
    // Prepare
    const cognito = await stubCognito({
      InitiateAuth: () => [200, { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 's1' }],
      RespondToAuthChallenge: (b) =>
        (b.ChallengeResponses as Record<string, string>).SOFTWARE_TOKEN_MFA_CODE === '123456'
          ? [200, { AuthenticationResult: { IdToken: 'id-token' } }]
          : [400, { __type: 'CodeMismatchException', message: 'Invalid code received for user' }],
    });
    // Act
    const token = await signIn(cognito.endpoint, { codes: ['123456'], shown: [] });
    // Assess
    expect(token).toBe('id-token');
    expect(cognito.calls.map((c) => c.action)).toEqual(['InitiateAuth', 'RespondToAuthChallenge']);
    expect(cognito.calls[1]?.body).toEqual({
      ClientId: 'client-1',
      ChallengeName: 'SOFTWARE_TOKEN_MFA',
      Session: 's1',
      ChallengeResponses: { USERNAME: 'rita', SOFTWARE_TOKEN_MFA_CODE: '123456' },
    });
  });

  it('says what Cognito said about a wrong code', async () => {
    const cognito = await stubCognito({
      InitiateAuth: () => [200, { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 's1' }],
      RespondToAuthChallenge: () => [
        400,
        { __type: 'CodeMismatchException', message: 'Invalid code received for user' },
      ],
    });
    await expect(signIn(cognito.endpoint, { codes: ['000000'], shown: [] })).rejects.toMatchObject({
      name: 'CognitoSignIn',
      message: expect.stringContaining('Invalid code'),
    });
  });

  it('sets an authenticator up on the first sign-in (MFA_SETUP): shows the secret, verifies a code, signs in', async () => {
    // Prepare
    const cognito = await stubCognito({
      InitiateAuth: () => [200, { ChallengeName: 'MFA_SETUP', Session: 's1' }],
      AssociateSoftwareToken: (b) => [200, { SecretCode: 'JBSWY3DPEHPK3PXP', Session: `${b.Session}-a` }],
      VerifySoftwareToken: (b) =>
        b.UserCode === '654321'
          ? [200, { Status: 'SUCCESS', Session: `${b.Session}-v` }]
          : [200, { Status: 'ERROR' }],
      RespondToAuthChallenge: () => [200, { AuthenticationResult: { IdToken: 'first-token' } }],
    });
    const mfa = { codes: ['654321'], shown: [] as string[] };
    // Act
    const token = await signIn(cognito.endpoint, mfa);
    // Assess
    expect(token).toBe('first-token');
    expect(mfa.shown).toEqual([
      'JBSWY3DPEHPK3PXP',
      'otpauth://totp/Docket%3Arita?secret=JBSWY3DPEHPK3PXP&issuer=Docket',
    ]);
    expect(cognito.calls.map((c) => c.action)).toEqual([
      'InitiateAuth',
      'AssociateSoftwareToken',
      'VerifySoftwareToken',
      'RespondToAuthChallenge',
    ]);
    expect(cognito.calls[3]?.body).toMatchObject({ ChallengeName: 'MFA_SETUP', Session: 's1-a-v' });
  });

  it('refuses without asking Cognito again when no code can be had, or the code is not 6 digits', async () => {
    const cognito = await stubCognito({
      InitiateAuth: () => [200, { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 's1' }],
    });
    await expect(signIn(cognito.endpoint)).rejects.toMatchObject({
      message: expect.stringContaining('--mfa-code'),
    });
    await expect(signIn(cognito.endpoint, { codes: ['12ab'], shown: [] })).rejects.toMatchObject({
      message: expect.stringContaining('6 digits'),
    });
    expect(cognito.calls.map((c) => c.action)).toEqual(['InitiateAuth', 'InitiateAuth']);
  });

  it('still names a challenge it does not handle (NEW_PASSWORD_REQUIRED)', async () => {
    const cognito = await stubCognito({
      InitiateAuth: () => [200, { ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: 's1' }],
    });
    await expect(signIn(cognito.endpoint, { codes: [], shown: [] })).rejects.toMatchObject({
      message: expect.stringContaining('NEW_PASSWORD_REQUIRED'),
    });
  });
});
