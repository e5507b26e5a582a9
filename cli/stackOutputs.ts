import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { StackOutputsError } from './errors.js';

/**
 * Output keys of the deployed Docket stack (infra/outputs.ts `StackOutput`). Repeated here rather
 * than imported so the CLI does not load aws-cdk-lib to read eight strings.
 */
export const OUTPUT_KEYS = {
  region: 'Region',
  bucket: 'DocumentsBucket',
  workflowsTable: 'WorkflowsTable',
  transitionsTable: 'TransitionsTable',
  providersTable: 'ProvidersTable',
  stateMachineArn: 'StateMachineArn',
  apiUrl: 'ApiUrl',
  userPoolId: 'UserPoolId',
  userPoolClientId: 'UserPoolClientId',
} as const;

/** The outputs the CLI works with. */
export type StackOutputs = Record<keyof typeof OUTPUT_KEYS, string>;

const REQUIRED: readonly (keyof typeof OUTPUT_KEYS)[] = [
  'bucket',
  'workflowsTable',
  'transitionsTable',
  'providersTable',
  'stateMachineArn',
];

/**
 * Reads the outputs of a deployed stack with CloudFormation `DescribeStacks`; credentials and
 * region come from the standard chain (`AWS_PROFILE`, `AWS_REGION`, ...), or `region` when given.
 */
export const readStackOutputs = async (stackName: string, region?: string): Promise<StackOutputs> => {
  const client = new CloudFormationClient(region ? { region } : {});
  try {
    const { Stacks } = await client
      .send(new DescribeStacksCommand({ StackName: stackName }))
      .catch((error) => {
        if (error instanceof Error && /does not exist/.test(error.message)) {
          throw new StackOutputsError(
            `Stack ${stackName} does not exist in ${region ?? 'the configured region'}; check --stack and AWS_REGION.`,
            { cause: error },
          );
        }
        throw error;
      });
    const byKey = new Map((Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
    const outputs = Object.fromEntries(
      Object.entries(OUTPUT_KEYS).map(([name, key]) => [name, byKey.get(key) ?? '']),
    ) as StackOutputs;
    const missing = REQUIRED.filter((name) => outputs[name] === '');
    if (missing.length > 0) {
      throw new StackOutputsError(
        `Stack ${stackName} has no output ${missing.map((m) => OUTPUT_KEYS[m]).join(', ')}; is it a Docket stack? Deploy it with \`npx cdk deploy\`.`,
      );
    }
    outputs.region ||= (await client.config.region()) ?? '';
    return outputs;
  } finally {
    client.destroy();
  }
};
