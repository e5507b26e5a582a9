import { vi } from 'vitest';

/** One CloudWatch embedded-metric-format record, as Powertools prints it. */
export interface EmfRecord {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
  [field: string]: unknown;
}

/**
 * Runs `act` and returns how it ended with the EMF records printed meanwhile (what CloudWatch
 * would turn into metrics). The handlers must be loaded with `POWERTOOLS_METRICS_DISABLED=false`;
 * other output passes through.
 */
export const emfRecordsDuring = async (act: () => Promise<unknown>) => {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string' && chunk.includes('"_aws"')) {
      lines.push(chunk);
      return true;
    }
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write);
  try {
    const outcome = await act().then(
      (value) => ({ value }) as { value?: unknown; error?: unknown },
      (error: unknown) => ({ error }) as { value?: unknown; error?: unknown },
    );
    const records = lines
      .flatMap((l) => l.split('\n').filter(Boolean))
      .map((l) => JSON.parse(l) as EmfRecord);
    return { outcome, records };
  } finally {
    spy.mockRestore();
  }
};

/** The records that carry metric `name`, with the dimension names each is published under. */
export const recordsOf = (records: EmfRecord[], name: string) =>
  records
    .filter((r) => r._aws.CloudWatchMetrics.some((m) => m.Metrics.some((x) => x.Name === name)))
    .map((r) => ({ ...r, dimensions: r._aws.CloudWatchMetrics.flatMap((m) => m.Dimensions) }));
