import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_COLUMNS } from '../../lambdas/shared/results/columns.js';
import { parquetSchema } from '../../lambdas/shared/results/parquet.js';
import { type SynthResult, synthDocket } from './support/synthDocket.js';
import {
  asArray,
  functionsByService,
  getAttTarget,
  logicalId,
  resources,
  roleStatements,
  single,
} from './support/templateQueries.js';

/*
 * The results catalog as synthesized (issue 16): the Glue tables over the Parquet files, the
 * Athena workgroup, the compaction function's schedule and grants, and the deliverer's result writes.
 */

let s: SynthResult;
beforeAll(() => {
  s = synthDocket();
}, 120_000);
afterAll(() => s?.remove());

type GlueTable = {
  DatabaseName: string;
  TableInput: {
    Name: string;
    PartitionKeys: { Name: string; Type: string }[];
    Parameters: Record<string, unknown>;
    StorageDescriptor: {
      Columns: { Name: string; Type: string }[];
      SerdeInfo: { SerializationLibrary: string };
    };
  };
};
const glueTables = () =>
  Object.values(resources(s, 'AWS::Glue::Table')).map((r) => r.Properties as unknown as GlueTable);
const roleOf = (service: string) => {
  const fn = functionsByService(s)[service];
  if (!fn) throw new Error(`no ${service} function`);
  return roleStatements(s, getAttTarget(fn.Properties.Role));
};
/** The actions a role has on objects under a key prefix of the documents bucket. */
const objectActions = (statements: ReturnType<typeof roleOf>, prefix: string) =>
  statements
    .filter((st) => JSON.stringify(st.Resource).includes(`/${prefix}*`))
    .flatMap((st) => asArray(st.Action))
    .sort();

/** The Parquet type a Glue type must read: one mapping, checked against what the writer declares. */
const parquetTypeOf = (element: {
  type?: string;
  converted_type?: string;
  precision?: number;
  scale?: number;
}) =>
  element.converted_type === 'DECIMAL'
    ? `decimal(${element.precision},${element.scale})`
    : (({ UTF8: 'string', DATE: 'date', TIMESTAMP_MILLIS: 'timestamp' } as Record<string, string>)[
        element.converted_type ?? ''
      ] ?? ({ INT32: 'int', BOOLEAN: 'boolean' } as Record<string, string>)[element.type ?? '']);

describe('the results catalog on AWS', () => {
  it("has a Glue table per doc type whose columns are the Parquet writer's, name for name and type for type", () => {
    // Act
    const byName = Object.fromEntries(glueTables().map((t) => [t.TableInput.Name, t.TableInput]));

    // Assess
    expect(Object.keys(byName).sort()).toEqual(['contracts', 'invoices']);
    for (const docType of ['invoice', 'contract'] as const) {
      const input = byName[`${docType}s`];
      const written = parquetSchema(docType)
        .slice(1)
        .map((e) => ({ Name: e.name.toLowerCase(), Type: parquetTypeOf(e) }));
      const listed = [
        ...(input?.StorageDescriptor.Columns.map(({ Name, Type }) => ({ Name, Type })) ?? []),
        ...(input?.PartitionKeys ?? []).filter((k) => k.Name !== 'date'),
      ];
      expect(listed.sort((a, b) => a.Name.localeCompare(b.Name))).toEqual(
        written.sort((a, b) => a.Name.localeCompare(b.Name)),
      );
      expect(input?.StorageDescriptor.Columns.map((c) => c.Name)).not.toContain('tenant');
      expect(RESULT_COLUMNS[docType].some((c) => c.name === 'tenant')).toBe(true);
      expect(input?.StorageDescriptor.SerdeInfo.SerializationLibrary).toContain('ParquetHiveSerDe');
    }
  });

  it('projects the tenant and date partitions from the key layout the compaction writes', () => {
    // Act
    const invoices = glueTables().find((t) => t.TableInput.Name === 'invoices')?.TableInput;
    const template = JSON.stringify(invoices?.Parameters['storage.location.template']);

    // Assess
    expect(invoices?.PartitionKeys).toEqual([
      { Name: 'tenant', Type: 'string' },
      { Name: 'date', Type: 'string' },
    ]);
    expect(invoices?.Parameters).toMatchObject({
      classification: 'parquet',
      'projection.enabled': 'true',
      'projection.tenant.type': 'injected',
      'projection.date.type': 'date',
      'projection.date.format': 'yyyy-MM-dd',
    });
    expect(template).toContain(`/results-parquet/\${tenant}/invoice/date=\${date}/`);
    expect(template).toContain(logicalId(s, s.stack.storage.bucket));
  });

  it('has an Athena workgroup that enforces encrypted query results under athena-results/ of the documents bucket', () => {
    // Act
    const workGroup = single(s, 'AWS::Athena::WorkGroup').Properties as {
      Name: string;
      WorkGroupConfiguration: {
        EnforceWorkGroupConfiguration: boolean;
        ResultConfiguration: { OutputLocation: unknown; EncryptionConfiguration: unknown };
      };
    };

    // Assess
    expect(workGroup.Name).toBe('Docket-results');
    expect(workGroup.WorkGroupConfiguration.EnforceWorkGroupConfiguration).toBe(true);
    expect(workGroup.WorkGroupConfiguration.ResultConfiguration.EncryptionConfiguration).toEqual({
      EncryptionOption: 'SSE_S3',
    });
    expect(JSON.stringify(workGroup.WorkGroupConfiguration.ResultConfiguration.OutputLocation)).toContain(
      '/athena-results/',
    );
    expect(Object.keys(s.template.findOutputs('ResultsWorkGroup'))).toHaveLength(1);
    expect(Object.keys(s.template.findOutputs('ResultsDatabase'))).toHaveLength(1);
  });

  it('runs the compaction every 15 minutes with only results/ to read and results-parquet/ to read, write and delete', () => {
    // Prepare
    const own = roleOf('results-compactor');
    // Act
    const rule = Object.values(resources(s, 'AWS::Events::Rule')).find(
      (r) => r.Properties.Description === 'Docket: compact results to Parquet',
    );
    const dynamo = own.flatMap((st) => asArray(st.Action)).filter((a) => a.startsWith('dynamodb:'));

    // Assess
    expect(rule?.Properties.ScheduleExpression).toBe('rate(15 minutes)');
    expect(objectActions(own, 'results/')).toEqual(['s3:GetObject']);
    expect(objectActions(own, 'results-parquet/')).toEqual([
      's3:DeleteObject',
      's3:GetObject',
      's3:PutObject',
    ]);
    expect(objectActions(own, 'artifacts/')).toEqual([]);
    expect(objectActions(own, 'incoming/')).toEqual([]);
    expect(dynamo).toEqual([]);
  });

  it('lets the outbox deliverer write results/ and nothing else of the bucket', () => {
    // Act
    const writes = roleOf('outbox-deliverer')
      .filter((st) => asArray(st.Action).some((a) => /^s3:(Put|Delete)/.test(a)))
      .map((st) => JSON.stringify(st.Resource));

    // Assess
    expect(writes).toHaveLength(1);
    expect(writes[0]).toContain('/results/*');
  });
});
