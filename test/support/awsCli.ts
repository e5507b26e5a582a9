import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { LOCAL_CREDENTIALS } from './localDynamo.js';

const run = promisify(execFile);

/** The `aws` executable on PATH, if any. */
export const findAws = (): string | undefined =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'aws'))
    .find((candidate) => {
      try {
        accessSync(candidate, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });

/**
 * Runs `aws ...args --endpoint-url endpoint` with local credentials and no user configuration;
 * fails at once, naming the fix, when the AWS CLI is not installed.
 */
export const awsCli = async (endpoint: string, args: string[]): Promise<string> => {
  const aws = findAws();
  if (!aws) {
    throw new Error(
      'The AWS CLI is not on PATH, so this client nobody here wrote cannot be checked. ' +
        'Install it (Debian: apt-get install -y awscli); CI installs it in .ci/run.',
    );
  }
  const { stdout } = await run(aws, [...args, '--endpoint-url', endpoint], {
    env: {
      ...process.env,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_REGION: 'us-east-1',
      AWS_PAGER: '',
      AWS_CONFIG_FILE: '/dev/null',
      AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
      // No instance metadata lookups for a region or credentials: they only add time off EC2.
      AWS_EC2_METADATA_DISABLED: 'true',
    },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
};
