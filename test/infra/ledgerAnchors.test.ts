import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SynthResult, synthDocket } from './support/synthDocket.js';
import {
  asArray,
  functionsByService,
  getAttTarget,
  logicalId,
  resources,
  roleStatements,
  type Statement,
} from './support/templateQueries.js';

let s: SynthResult;
beforeAll(() => {
  s = synthDocket({ context: { ledgerSnapshotMinutes: '10', ledgerSnapshotRetentionDays: '2555' } });
}, 120_000);
afterAll(() => s?.remove());

/** What each function's role may do with the transition log table (its stream apart). */
const logActionsByFunction = () => {
  const log = logicalId(s, s.stack.storage.transitions);
  const onTable = (st: Statement) =>
    JSON.stringify(st.Resource).includes(`"${log}"`) && !JSON.stringify(st.Resource).includes('StreamArn');
  return Object.fromEntries(
    Object.entries(functionsByService(s)).map(([service, fn]) => [
      service,
      roleStatements(s, getAttTarget(fn.Properties.Role))
        .filter(onTable)
        .flatMap((st) => asArray(st.Action))
        .sort(),
    ]),
  );
};

describe('the ledger anchors on AWS', () => {
  it('keeps snapshots in a bucket with Object Lock in compliance mode for the configured days, kept with the stack gone', () => {
    // Act
    const bucket = resources(s, 'AWS::S3::Bucket')[logicalId(s, s.stack.ledger.snapshots)];
    // Assess
    expect(bucket?.Properties).toMatchObject({
      ObjectLockEnabled: true,
      ObjectLockConfiguration: {
        ObjectLockEnabled: 'Enabled',
        Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 2555 } },
      },
      VersioningConfiguration: { Status: 'Enabled' },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, RestrictPublicBuckets: true },
    });
    expect(Object.values(resources(s, 'AWS::S3::Bucket')).length).toBe(3);
    const output = Object.values(s.template.findOutputs('LedgerSnapshotBucket'))[0];
    expect(output?.Value).toEqual({ Ref: logicalId(s, s.stack.ledger.snapshots) });
  });

  it('takes a snapshot on the configured schedule, writing only new objects under ledger/snapshots/', () => {
    // Prepare
    const snapshotter = functionsByService(s)['ledger-snapshot'];
    const role = getAttTarget(snapshotter?.Properties.Role);
    // Act
    const rules = Object.values(resources(s, 'AWS::Events::Rule')).filter(
      (r) => r.Properties.Description === 'Docket: ledger snapshot',
    );
    const s3Actions = roleStatements(s, role)
      .flatMap((st) => asArray(st.Action))
      .filter((a) => a.startsWith('s3:'));
    // Assess
    expect(rules.map((r) => r.Properties.ScheduleExpression)).toEqual(['rate(10 minutes)']);
    expect(s3Actions.sort()).toEqual(['s3:AbortMultipartUpload', 's3:PutObject']);
    expect(
      JSON.stringify(roleStatements(s, role).filter((st) => asArray(st.Action).includes('s3:PutObject'))),
    ).toContain('ledger/snapshots/*');
    expect(snapshotter?.Properties.Environment).toMatchObject({
      Variables: { LEDGER_SNAPSHOT_BUCKET: { Ref: logicalId(s, s.stack.ledger.snapshots) } },
    });
  });

  it('feeds the witness only MODIFY and REMOVE of log entries, from a keys-only stream', () => {
    // Act
    const table = resources(s, 'AWS::DynamoDB::GlobalTable')[logicalId(s, s.stack.storage.transitions)];
    const [mapping, ...others] = Object.values(resources(s, 'AWS::Lambda::EventSourceMapping')).filter((m) =>
      JSON.stringify(m.Properties.EventSourceArn).includes(logicalId(s, s.stack.storage.transitions)),
    );
    // Assess
    expect(table?.Properties.StreamSpecification).toEqual({ StreamViewType: 'KEYS_ONLY' });
    expect(others).toEqual([]);
    expect(mapping?.Properties.FunctionName).toEqual({ Ref: functionsByService(s)['ledger-witness']?.id });
    expect(JSON.parse(JSON.stringify(mapping?.Properties.FilterCriteria))).toEqual({
      Filters: [{ Pattern: JSON.stringify({ eventName: ['MODIFY', 'REMOVE'] }) }],
    });
  });

  it('gives each role only what it does with the log: append for the writers, read for the snapshot, nothing for the rest', () => {
    // Act
    const byFunction = logActionsByFunction();
    const append = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query'];
    const writers = Object.keys(byFunction).filter((f) => byFunction[f]?.includes('dynamodb:PutItem'));
    // Assess: the stages that make transitions, the review API (an admin's cancel) and reprocess.
    expect(writers.sort()).toEqual(
      [
        'apply-review',
        'compare',
        'extract',
        'ingest',
        'mark-failed',
        'mark-rejected',
        'mark-timed-out',
        'ocr',
        'parse',
        'reprocess',
        'review-api',
        'validate',
      ].sort(),
    );
    for (const writer of writers) expect(byFunction[writer], writer).toEqual(append);
    expect(byFunction['ledger-snapshot']).toEqual(['dynamodb:GetItem', 'dynamodb:Query']);
    for (const none of [
      'schedule-review',
      'request-review',
      'ledger-witness',
      'starter',
      'slot-release',
      'outbox-deliverer',
    ])
      expect(byFunction[none], none).toEqual([]);
  });
});
