import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_OUTCOMES } from '../../infra/constructs/faultAlarms.js';
import { EnvVar } from '../../lambdas/shared/config.js';
import { Outcome } from '../../statemachine/index.js';
import { type SynthResult, synthDocket } from './support/synthDocket.js';
import {
  asArray,
  functionsByService,
  logicalId,
  type Resource,
  resources,
  roleStatements,
  type Statement,
} from './support/templateQueries.js';

// One synth (cdk.json defaults, no bundling) for the whole file.
let s: SynthResult;
beforeAll(() => {
  s = synthDocket();
}, 120_000);
afterAll(() => s?.remove());

type AlarmProps = Resource['Properties'] & {
  MetricName?: string;
  Namespace?: string;
  Dimensions?: { Name: string; Value: unknown }[];
  Metrics?: {
    Id: string;
    Expression?: string;
    MetricStat?: { Metric: { MetricName: string; Dimensions?: { Name: string; Value: unknown }[] } };
  }[];
};
const alarms = () =>
  Object.values(resources(s, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties as AlarmProps);
/** Every metric an alarm watches, as `name{dim=value,...}` (math alarms: each metric they sum). */
const watched = (alarm: AlarmProps): string[] => {
  const label = (name: string, dims: { Name: string; Value: unknown }[] = []) =>
    `${name}{${dims.map((d) => `${d.Name}=${typeof d.Value === 'string' ? d.Value : 'ref'}`).join(',')}}`;
  if (alarm.MetricName) return [label(alarm.MetricName, alarm.Dimensions)];
  return (alarm.Metrics ?? []).flatMap((m) =>
    m.MetricStat ? [label(m.MetricStat.Metric.MetricName, m.MetricStat.Metric.Dimensions)] : [],
  );
};
const byDescription = (words: string) => {
  const found = alarms().filter((a) => String(a.AlarmDescription).includes(words));
  if (found.length !== 1) throw new Error(`${found.length} alarms say "${words}"`);
  return found[0] as AlarmProps;
};

describe('alarms mean faults', () => {
  it('never alarm on a business outcome: no failed-execution count, no stage Lambda errors, no rejected documents', () => {
    // Prepare
    const metrics = alarms().flatMap(watched);
    // Assess: ExecutionsFailed counts every bad PDF; stage Errors include permanent document errors.
    expect(metrics.filter((m) => m.startsWith('ExecutionsFailed'))).toEqual([]);
    expect(metrics.filter((m) => m.startsWith('DocumentsRejected'))).toEqual([]);
    expect(
      metrics.filter((m) =>
        /ExecutionOutcomes\{outcome=(Completed|ReviewRejected|ProcessingFailed|Quarantined|Duplicate|Cancelled)\}/.test(
          m,
        ),
      ),
    ).toEqual([]);
    const lambdaErrors = alarms().filter((a) => watched(a).some((m) => m.startsWith('Errors{')));
    // Two functions whose errors are faults, never a document's: review-metrics, and the outbox
    // deliverer (with its failed deliveries, over three periods).
    expect(lambdaErrors.map((a) => a.AlarmDescription).sort()).toEqual([
      expect.stringContaining('Completion events are not being delivered'),
      expect.stringContaining('review-metrics failed'),
    ]);
  });

  it('alarm on the fault outcomes and timed-out executions, summed', () => {
    const alarm = byDescription('Docket failed, not the document');
    expect(watched(alarm).sort()).toEqual(
      [
        ...FAULT_OUTCOMES.map((o) => `ExecutionOutcomes{outcome=${o}}`),
        'ExecutionsTimedOut{StateMachineArn=ref}',
      ].sort(),
    );
    expect(FAULT_OUTCOMES).not.toContain(Outcome.processingFailed);
  });

  it('alarm on documents whose retries ran out, and on unparseable events', () => {
    expect(watched(byDescription('outlasted every retry'))).toEqual([
      'RetriesExhausted{service=mark-failed}',
    ]);
    const unparseable = byDescription('cannot parse');
    expect(watched(unparseable)).toEqual(['UnparseableEvents{service=ingest}']);
    expect(unparseable).toMatchObject({
      Namespace: 'Docket',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('alarm as soon as the dead-letter queue holds a message', () => {
    const dlq = logicalId(s, s.stack.trigger.deadLetterQueue);
    expect(byDescription('dead-letter queue not empty')).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlq, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('alarm on sustained throttling of any function, within the 10-metric limit, in one page', () => {
    // Prepare
    const functions = Object.keys(resources(s, 'AWS::Lambda::Function')).length;
    const parts = alarms().filter((a) => watched(a).some((m) => m.startsWith('Throttles{')));
    const composite = Object.values(resources(s, 'AWS::CloudWatch::CompositeAlarm'));
    // Assess
    expect(parts.flatMap(watched)).toHaveLength(functions);
    for (const part of parts) {
      expect(watched(part).length).toBeLessThanOrEqual(10);
      expect(part.AlarmActions).toBeUndefined();
      expect(part).toMatchObject({ EvaluationPeriods: 3, DatapointsToAlarm: 3 });
    }
    expect(composite).toHaveLength(1);
    expect(JSON.stringify(composite[0]?.Properties.AlarmRule).match(/ALARM\(/g)).toHaveLength(parts.length);
  });

  it('page only through the alarm topic, and keep the review SLA alarms', () => {
    const topic = logicalId(s, s.stack.operations.topic);
    const paging = [
      ...alarms().filter((a) => a.AlarmActions),
      ...Object.values(resources(s, 'AWS::CloudWatch::CompositeAlarm')).map((a) => a.Properties),
    ];
    for (const alarm of paging) expect(alarm.AlarmActions).toEqual([{ Ref: topic }]);
    expect(paging).toHaveLength(11);
    expect(watched(byDescription('transition log entry was modified'))).toEqual([
      'LedgerEntriesChanged{service=ledger-witness}',
    ]);
    expect(watched(byDescription('heartbeat'))).toEqual(['ExecutionOutcomes{outcome=ReviewTimedOut}']);
    expect(watched(byDescription('oldest open review'))).toEqual([
      'OldestReviewAgeSeconds{service=review-metrics}',
    ]);
    expect(watched(byDescription('longer than the review target (8 h'))).toEqual([
      'ReviewsPastSla{service=review-metrics}',
    ]);
  });

  it('give review-metrics the review target it counts breaches against, from the one policy', () => {
    // Prepare
    const fn = functionsByService(s)['review-metrics'] as Resource;
    // Act
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    // Assess: the default policy's 8 h, as the alarm says.
    expect(variables[EnvVar.reviewSlaSeconds]).toBe('28800');
  });

  it('have names that cannot collide across regions: alarms named by CloudFormation, the dashboard by region', () => {
    for (const alarm of alarms()) expect(alarm.AlarmName).toBeUndefined();
    const [dashboard] = Object.values(resources(s, 'AWS::CloudWatch::Dashboard'));
    expect(JSON.stringify(dashboard?.Properties.DashboardName)).toContain('AWS::Region');
  });

  it('show outcomes on the dashboard: documents by outcome, rejections by reason, reviews, quarantine', () => {
    const [dashboard] = Object.values(resources(s, 'AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard?.Properties.DashboardBody);
    for (const title of [
      'Documents by outcome',
      'Rejected documents by reason',
      'Reviewed and quarantined',
      'Faults (alarmed)',
    ]) {
      expect(body).toContain(title);
    }
    expect(body).toContain('MetricName=\\\\\\"DocumentsRejected\\\\\\"');
    expect(body).toContain('UploadsQuarantined');
  });
});

describe('dead-letter queue access', () => {
  it('lets ingest and the starter, and only them, send to the dead-letter queue they find in DEAD_LETTER_QUEUE_URL', () => {
    // Prepare
    const dlq = logicalId(s, s.stack.trigger.deadLetterQueue);
    const functions = functionsByService(s);
    const withUrl = Object.entries(functions).filter(
      ([, f]) =>
        (f.Properties.Environment as { Variables: Record<string, unknown> }).Variables[
          EnvVar.deadLetterQueueUrl
        ],
    );
    const sendsOf = (name: string) => {
      const fn = functions[name] as Resource & { id: string };
      const role = (fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0] as string;
      return roleStatements(s, role)
        .filter((st) => JSON.stringify(st.Resource).includes(dlq))
        .flatMap((st) => asArray(st.Action))
        .sort();
    };

    // Assess
    expect(withUrl.map(([name]) => name).sort()).toEqual(['ingest', 'starter']);
    for (const [name, fn] of withUrl) {
      expect(fn.Properties.Environment).toMatchObject({
        Variables: { [EnvVar.deadLetterQueueUrl]: { Ref: dlq } },
      });
      expect(sendsOf(name)).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'].sort());
    }
  });
});

describe('operator policy', () => {
  it('grants operators reads, executions and the dead-letter queue, and is published as an output', () => {
    // Prepare
    const policy = Object.values(resources(s, 'AWS::IAM::ManagedPolicy')).find((p) =>
      String(p.Properties.Description).startsWith('Docket operators'),
    );
    if (!policy) throw new Error('no operator policy in the template');
    const statements = (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement;
    const actions = statements.flatMap((st) => asArray(st.Action));
    const dlq = logicalId(s, s.stack.trigger.deadLetterQueue);
    const on = (action: string) =>
      JSON.stringify(statements.filter((st) => asArray(st.Action).includes(action)).map((st) => st.Resource));

    // Assess: reads, never writes, of tables and objects, but a new ledger snapshot (Object Lock
    // keeps the ones before it)...
    expect(actions.filter((a) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(a))).toEqual([]);
    expect(actions.filter((a) => /^s3:Delete/.test(a))).toEqual([]);
    expect(on('s3:PutObject')).toContain(logicalId(s, s.stack.ledger.snapshots));
    expect(on('s3:PutObject')).toContain('ledger/snapshots/*');
    expect(on('s3:PutObject')).not.toContain(logicalId(s, s.stack.storage.bucket));
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:GetItem', 's3:GetObject']));
    // ...executions of this state machine only...
    expect(actions).toEqual(
      expect.arrayContaining([
        'states:StartExecution',
        'states:DescribeExecution',
        'states:RedriveExecution',
      ]),
    );
    expect(on('states:RedriveExecution')).toContain(':execution:');
    expect(on('states:StartExecution')).toContain(logicalId(s, s.stack.workflow.stateMachine));
    // ...the dead letters, and the stack's outputs, which is how `docket --stack` finds the rest.
    expect(on('sqs:ReceiveMessage')).toContain(dlq);
    expect(actions).toEqual(expect.arrayContaining(['sqs:SendMessage', 'sqs:DeleteMessage']));
    expect(on('cloudformation:DescribeStacks')).toContain('AWS::StackId');
    expect(actions.some((a) => a.includes('*'))).toBe(false);
    const output = s.template.findOutputs('OperatorPolicyArn');
    expect(Object.values(output)[0]?.Value).toEqual({ Ref: expect.stringMatching(/^Operators/) });
  });
});
