import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Answers CloudFormation `DescribeStacks` (AWS query protocol) for one stack: the only AWS API
 * the CLI calls that no local emulator provides. Everything else `--stack` uses goes to the real
 * local emulators through the standard `AWS_ENDPOINT_URL_*` variables, as with LocalStack.
 */
export const startCloudFormationStandIn = async (stackName: string, outputs: Record<string, string>) => {
  const requests: string[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const params = new URLSearchParams(body);
    requests.push(body);
    res.setHeader('content-type', 'text/xml');
    if (params.get('Action') !== 'DescribeStacks' || params.get('StackName') !== stackName) {
      res.statusCode = 400;
      res.end(
        `<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><Error><Type>Sender</Type><Code>ValidationError</Code><Message>Stack with id ${xmlText(params.get('StackName') ?? '')} does not exist</Message></Error><RequestId>stand-in</RequestId></ErrorResponse>`,
      );
      return;
    }
    const members = Object.entries(outputs)
      .map(
        ([key, value]) =>
          `<member><OutputKey>${key}</OutputKey><OutputValue>${xmlText(value)}</OutputValue></member>`,
      )
      .join('');
    res.end(
      `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member><StackName>${stackName}</StackName><StackStatus>CREATE_COMPLETE</StackStatus><CreationTime>2025-01-01T00:00:00Z</CreationTime><Outputs>${members}</Outputs></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>stand-in</RequestId></ResponseMetadata></DescribeStacksResponse>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
