import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One SQS API call the stub received: the `X-Amz-Target` action and its JSON body. */
export interface RecordedSqsCall {
  action: string;
  body: Record<string, unknown>;
}

/**
 * A stand-in for the SQS boundary until the local SQS emulator exists (local/emulators/sqs/): an
 * HTTP listener on a free port that records every SQS JSON-protocol call (`X-Amz-Target:
 * AmazonSQS.<Action>`) and answers `SendMessage` as SQS does, with the MD5 of the body the SDK
 * checks. Any other action gets SQS's error shape, so a test never passes on a call it did not
 * expect. `failSends` makes SendMessage answer 500 (the queue unavailable).
 */
export const startSqsBoundaryStub = async (options: { failSends?: boolean } = {}) => {
  const calls: RecordedSqsCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const action = String(req.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      calls.push({ action, body });
      const answer = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify(payload));
      };
      if (action !== 'SendMessage') {
        answer(400, { __type: 'com.amazonaws.sqs#InvalidAction', message: `stub: ${action} not recorded` });
      } else if (options.failSends) {
        answer(500, { __type: 'com.amazonaws.sqs#InternalError', message: 'stub: unavailable' });
      } else {
        const md5 = createHash('md5')
          .update(String(body.MessageBody ?? ''))
          .digest('hex');
        answer(200, { MessageId: randomUUID(), MD5OfMessageBody: md5 });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    queueUrl: `${endpoint}/000000000000/docket-dead-letters`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
