import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Index } from '../../lambdas/shared/store/index.js';
import { type SynthResult, synthDocket } from './support/synthDocket.js';
import {
  asArray,
  functionsByService,
  getAttTarget,
  logicalId,
  resources,
  roleStatements,
  type Statement,
  single,
  statements,
} from './support/templateQueries.js';

/* The completion events as synthesized: the bus and its archive, the deliverer's grants, its schedule. */

let s: SynthResult;
beforeAll(() => {
  s = synthDocket({ context: { eventArchiveDays: '7' } });
}, 120_000);
afterAll(() => s?.remove());

const deliverer = () => {
  const fn = functionsByService(s)['outbox-deliverer'];
  if (!fn) throw new Error('no outbox-deliverer function');
  return { fn, statements: roleStatements(s, getAttTarget(fn.Properties.Role)) };
};
const actionsOn = (list: Statement[], resource: string) =>
  list
    .filter((st) => JSON.stringify(st.Resource).includes(resource))
    .flatMap((st) => asArray(st.Action))
    .sort();

describe('completion events on AWS', () => {
  it('has one event bus per stack, named by it, with an archive of its events for the configured days', () => {
    // Act
    const bus = single(s, 'AWS::Events::EventBus');
    const archive = single(s, 'AWS::Events::Archive');
    const busId = logicalId(s, s.stack.events.bus);
    // Assess
    expect(bus.Properties.Name).toBe('Docket-events');
    expect(archive.Properties).toMatchObject({
      SourceArn: { 'Fn::GetAtt': [busId, 'Arn'] },
      RetentionDays: 7,
      EventPattern: { source: ['docket'] },
    });
    expect(Object.values(s.template.findOutputs('EventBusName'))[0]?.Value).toEqual({ Ref: busId });
  });

  it('lets the deliverer put events on that bus only, and no other function at all', () => {
    // Prepare
    const busArn = JSON.stringify({ 'Fn::GetAtt': [logicalId(s, s.stack.events.bus), 'Arn'] });
    // Act
    const puts = statements(s).filter((st) => asArray(st.Action).includes('events:PutEvents'));
    const { fn, statements: own } = deliverer();
    // Assess
    expect(puts).toHaveLength(1);
    expect(JSON.stringify(puts[0]?.Resource)).toBe(busArn);
    expect(own).toContainEqual(expect.objectContaining({ Action: 'events:PutEvents' }));
    expect(fn.Properties.Environment).toMatchObject({
      Variables: { EVENT_BUS_NAME: { Ref: logicalId(s, s.stack.events.bus) } },
    });
  });

  it('gives the deliverer the outbox index, GetItem and UpdateItem of the workflows table, artifacts to read, results to write (and delete), and nothing of the log', () => {
    // Prepare
    const workflows = logicalId(s, s.stack.storage.workflows);
    const { fn, statements: own } = deliverer();
    // Act
    const onIndexes = own.filter((st) => JSON.stringify(st.Resource).includes('/index/'));
    const onTable = own.filter(
      (st) =>
        JSON.stringify(st.Resource).includes(`"${workflows}"`) &&
        !JSON.stringify(st.Resource).includes('/index/'),
    );
    const s3Writes = own.flatMap((st) => asArray(st.Action)).filter((a) => /^s3:(Put|Delete)/.test(a));
    // Assess
    expect(onTable.flatMap((st) => asArray(st.Action)).sort()).toEqual([
      'dynamodb:GetItem',
      'dynamodb:UpdateItem',
    ]);
    expect(onIndexes.flatMap((st) => asArray(st.Action))).toEqual(['dynamodb:Query']);
    expect(JSON.stringify(onIndexes[0]?.Resource)).toContain(`/index/${Index.pendingOutbox}`);
    expect(actionsOn(own, logicalId(s, s.stack.storage.transitions))).toEqual([]);
    // The one write: a completed workflow's JSON result (resultsCatalog.test.ts checks where), and
    // its deletion again when an erasure began meanwhile; on results/ only.
    expect(s3Writes.sort()).toEqual(['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:PutObject']);
    const deletes = own.filter((st) => asArray(st.Action).some((a) => a.startsWith('s3:Delete')));
    expect(deletes.map((st) => JSON.stringify(st.Resource)).join()).not.toMatch(/artifacts|incoming/);
    expect(JSON.stringify(deletes)).toContain('/results/*');
    expect(JSON.stringify(own.filter((st) => asArray(st.Action).includes('s3:GetObject')))).toContain(
      '/artifacts/*',
    );
    expect(fn.Properties).toMatchObject({ Timeout: 60, MemorySize: 256 });
  });

  it('runs the deliverer every minute, and pages when deliveries fail three 5-minute periods in a row', () => {
    // Act
    const rules = Object.values(resources(s, 'AWS::Events::Rule')).filter(
      (r) => r.Properties.Description === 'Docket: deliver completion events',
    );
    const alarm = Object.values(resources(s, 'AWS::CloudWatch::Alarm')).find((a) =>
      String(a.Properties.AlarmDescription).startsWith('Completion events are not being delivered'),
    );
    // Assess
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      Targets: [
        expect.objectContaining({
          Arn: { 'Fn::GetAtt': [deliverer().fn.id, 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 0 },
        }),
      ],
    });
    expect(alarm?.Properties).toMatchObject({
      EvaluationPeriods: 3,
      DatapointsToAlarm: 3,
      Threshold: 1,
      AlarmActions: [{ Ref: logicalId(s, s.stack.operations.topic) }],
    });
  });

  it('adds the sparse outbox index to the workflows table', () => {
    // Act
    const table = resources(s, 'AWS::DynamoDB::GlobalTable')[logicalId(s, s.stack.storage.workflows)];
    const indexes = (table?.Properties.GlobalSecondaryIndexes ?? []) as {
      IndexName: string;
      KeySchema: unknown;
    }[];
    const index = indexes.find((i) => i.IndexName === Index.pendingOutbox);
    // Assess
    expect(index?.KeySchema).toEqual([
      { AttributeName: 'outboxPending', KeyType: 'HASH' },
      { AttributeName: 'outboxAt', KeyType: 'RANGE' },
    ]);
  });
});
