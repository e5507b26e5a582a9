import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { StackOutput, type StackOutputName } from '../infra/outputs.js';
import { StackOutputsError } from './errors.js';

/** The outputs the CLI works with, by name (`StackOutput` in infra/outputs.ts gives their keys). */
export type StackOutputs = Record<StackOutputName, string>;

const REQUIRED: readonly StackOutputName[] = [
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
      Object.entries(StackOutput).map(([name, output]) => [name, byKey.get(output.key) ?? '']),
    ) as StackOutputs;
    const missing = REQUIRED.filter((name) => outputs[name] === '');
    if (missing.length > 0) {
      throw new StackOutputsError(
        `Stack ${stackName} has no output ${missing.map((m) => StackOutput[m].key).join(', ')}; is it a Docket stack? Deploy it with \`npx cdk deploy\`.`,
      );
    }
    outputs.region ||= (await client.config.region()) ?? '';
    return outputs;
  } finally {
    client.destroy();
  }
};
