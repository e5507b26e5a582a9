/**
 * Runs the local SQS and a sender in one process of its own, so a test can `kill -9` both at
 * any instant: it sends `count` messages one by one and prints `ack <body> <messageId>` as each
 * SendMessage is acknowledged.
 */
import { CreateQueueCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { startLocalSqs } from '../../../../local/emulators/sqs/index.js';
import { sqsClient } from './localSqs.js';

const [directory = '', prefix = 'm', count = '10'] = process.argv.slice(2);
const sqs = await startLocalSqs({ directory });
const client = sqsClient(sqs.endpoint);
const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: 'durable' }));
process.stdout.write('ready\n');
for (let i = 0; i < Number(count); i++) {
  const body = `${prefix}-${i}`;
  const { MessageId } = await client.send(new SendMessageCommand({ QueueUrl, MessageBody: body }));
  process.stdout.write(`ack ${body} ${MessageId}\n`);
}
process.stdout.write('done\n');
