import { relative } from 'node:path';
import type { LocalRuntime } from './runtime.js';

/** What `npm start` prints once the stack is up: where things are and what to do next. */
export const startupBanner = (runtime: LocalRuntime, dataDir: string): string => {
  const e = runtime.endpoints;
  const dir = relative(process.cwd(), dataDir) || '.';
  const { resumed, started, failed } = runtime.recovery;
  const recovery =
    resumed + started + failed.length > 0
      ? `\n  Recovered from the last run: ${resumed} workflow(s) resumed, ${started} upload(s) queued` +
        (failed.length > 0 ? `, ${failed.length} could not be resumed (docket ls --state failed)` : '')
      : '';
  return `Docket is running (data in ${dir}/, Ctrl-C to stop).${recovery}

  Review console   ${e.console}
  Review API       ${e.api}
  S3               ${e.s3}   bucket ${e.bucket}
  DynamoDB         ${e.dynamodb}
  Step Functions   ${e.sfn}
  SQS              ${e.sqs}   upload queue, dead letters (docket dlq list)
  EventBridge      ${e.events}   bus ${e.eventBus}, completion events (docket events)
  State machine    ${e.stateMachineArn}
  Endpoints file   ${dir}/endpoints.json

Next, in another terminal:
  npx docket samples --out samples            # write a few sample contracts and invoices
  npx docket providers import samples-data/providers.json
                                              # the counterparties validation looks up
  npx docket upload samples --tenant acme     # each PDF becomes a workflow
  npx docket ls                               # watch them move through the states
  npx docket token create --user alice --role reviewer --tenant acme
                                              # paste the token into ${e.console}
Any AWS client works too, e.g.:
  AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER aws --endpoint-url ${e.s3} s3 cp file.pdf s3://${e.bucket}/incoming/acme/`;
};
