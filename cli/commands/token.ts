import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { ROLES, type Role } from '../../lambdas/shared/principal.js';
import { readEndpoints } from '../../local/endpoints.js';
import { checkTenant } from '../checkTenant.js';
import { cognitoSignIn, type MfaPrompts } from '../cognitoSignIn.js';
import type { CliContext } from '../context.js';
import { NoLocalStackError, UsageError } from '../errors.js';
import { printJson, println } from '../io.js';
import { checkExpiresIn, checkUser } from '../tokenInput.js';

interface TokenOptions {
  user: string;
  role?: Role;
  groups?: string;
  tenant?: string;
  expiresIn: string;
  passwordStdin?: boolean;
  mfaCode?: string;
  json?: boolean;
}

/** Asks one question on the terminal (not stdin, which may carry the password). */
const askTerminal = async (question: string): Promise<string> => {
  const { createReadStream, createWriteStream } = await import('node:fs');
  const { createInterface } = await import('node:readline/promises');
  let input: NodeJS.ReadableStream;
  try {
    input = createReadStream('/dev/tty');
    await new Promise((resolve, reject) => input.once('open', resolve).once('error', reject));
  } catch (cause) {
    throw new UsageError('Cognito asks for an MFA code and there is no terminal: give --mfa-code.', {
      cause,
    });
  }
  const output = createWriteStream('/dev/tty');
  const rl = createInterface({ input, output });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
    (input as NodeJS.ReadableStream & { destroy: () => void }).destroy();
    output.end();
  }
};

/** The MFA answers of `token create --stack`: `--mfa-code`, else a question on the terminal. */
const mfaPrompts = (ctx: CliContext, options: TokenOptions): MfaPrompts => ({
  code: async () => options.mfaCode ?? askTerminal('MFA code from your authenticator app: '),
  showSecret: (secret, uri) => {
    ctx.io.stderr.write(
      `First sign-in: add Docket to your authenticator app with this secret, then enter the code it shows.\n` +
        `  secret: ${secret}\n  uri:    ${uri}\n`,
    );
  },
});

const readStdin = async (stream: NodeJS.ReadableStream): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
};

/** `--groups finance,manager`: names as policy roles are written (lower case, up to 30 characters). */
const parseGroups = (list: string | undefined): string[] => {
  if (list === undefined) return [];
  const groups = list.split(',').map((g) => g.trim());
  const bad = groups.find((g) => !/^[a-z][a-z0-9_-]{0,29}$/.test(g));
  if (bad !== undefined) {
    throw new UsageError(`--groups takes role names such as finance,manager; "${bad}" is not one.`);
  }
  return groups;
};

/**
 * `token create`: locally, a bearer token signed with the stack's key (`<data-dir>/jwt.key`); with
 * `--stack`, a Cognito ID token for an existing user (role and tenant come from the user pool).
 */
export const registerTokenCommands = (program: Command, ctx: CliContext): void => {
  const token = program.command('token').description('bearer tokens for the review API and console');
  token
    .command('create')
    .description('print a token for a reviewer, uploader or admin (paste it into the review console)')
    .requiredOption('--user <user>', 'who the token is for')
    .addOption(new Option('--role <role>', 'local: reviewer, uploader or admin').choices(ROLES))
    .option(
      '--groups <list>',
      'local: further groups, the roles review policies name (e.g. finance,manager), comma-separated',
    )
    .option('--tenant <tenant>', 'local: the tenant whose documents the user sees')
    .option('--expires-in <duration>', 'local: lifetime, e.g. 30m, 12h, 7d', '12h')
    .option('--password-stdin', 'with --stack: read the Cognito password from stdin (else $DOCKET_PASSWORD)')
    .option('--mfa-code <code>', 'with --stack: the 6-digit code of your authenticator app (else asked)')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
Local:   docket token create --user alice --role reviewer --tenant acme
AWS:     echo "$PASSWORD" | docket --stack Docket token create --user alice --password-stdin --mfa-code 123456
         (the user must exist in the stack's user pool, in group reviewer, uploader or admin, with custom:tenant set;
         MFA is required: the first sign-in, in a terminal, shows a secret for an authenticator app)`,
    )
    .action(async (options: TokenOptions) => {
      checkUser(options.user);
      let value: string;
      if (ctx.stackName) {
        const target = await ctx.stack();
        if (!target.userPool) throw new UsageError(`Stack ${ctx.stackName} has no UserPoolClientId output.`);
        const password = options.passwordStdin ? await readStdin(process.stdin) : ctx.io.env.DOCKET_PASSWORD;
        if (!password)
          throw new UsageError('Give the password on stdin with --password-stdin, or in $DOCKET_PASSWORD.');
        value = await cognitoSignIn({
          region: target.region,
          clientId: target.userPool.clientId,
          username: options.user,
          password,
          mfa: mfaPrompts(ctx, options),
          ...(ctx.io.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER && {
            endpoint: ctx.io.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER,
          }),
        });
      } else {
        if (!options.role || !options.tenant)
          throw new UsageError(`A local token needs --role ${ROLES.join('|')} and --tenant T.`);
        checkExpiresIn(options.expiresIn);
        const tenant = await checkTenant(options.tenant);
        // A token only means something to a stack that was started here: refuse a mistyped --data-dir.
        if (!(await readEndpoints(ctx.dataDir))) throw new NoLocalStackError(ctx.dataDir);
        const { loadSigningKey, mintToken } = await import('../../local/auth/localTokens.js');
        const key = await loadSigningKey(join(ctx.dataDir, 'jwt.key'));
        value = await mintToken(key, {
          user: options.user,
          role: options.role,
          groups: parseGroups(options.groups),
          tenant,
          expiresIn: options.expiresIn,
        });
      }
      if (!options.json) return println(ctx.io, value);
      const { decodeJwt } = await import('jose');
      const claims = decodeJwt(value);
      printJson(ctx.io, {
        token: value,
        user: options.user,
        roles: claims['cognito:groups'] ?? [],
        tenant: claims['custom:tenant'],
        expiresAt: claims.exp ? new Date(claims.exp * 1000).toISOString() : undefined,
      });
    });
};
