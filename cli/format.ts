/** A column of a text table. */
export interface Column<Row> {
  header: string;
  value: (row: Row) => string | number | undefined;
  align?: 'left' | 'right';
  /** Longer values are cut with an ellipsis so one row stays one line. */
  max?: number;
}

const cut = (text: string, max: number | undefined): string =>
  max !== undefined && text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text;

/** Renders rows as an aligned text table with a header line; an empty table says so. */
export const renderTable = <Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  empty: string,
  indent = '',
): string => {
  if (rows.length === 0) return empty;
  const cells = rows.map((row) =>
    columns.map((c) => cut(String(c.value(row) ?? '-').replace(/\s+/g, ' '), c.max)),
  );
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (columns[i]?.align === 'right' ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd()
      .replace(/^/, indent);
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n');
};

/** A duration for people: `850ms`, `12s`, `3m 04s`, `2h 05m`, `3d 04h`. */
export const formatDuration = (ms: number): string => {
  const abs = Math.abs(ms);
  if (abs < 1000) return `${Math.round(abs)}ms`;
  const s = Math.floor(abs / 1000);
  if (s < 60) return `${s}s`;
  const two = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m ${two(s % 60)}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${two(Math.floor((s % 3600) / 60))}m`;
  return `${Math.floor(s / 86_400)}d ${two(Math.floor((s % 86_400) / 3600))}h`;
};

/** How far an ISO time is from now: `in 23h 59m`, `5m 02s ago`, or `-` when absent. */
export const formatRelative = (iso: string | undefined, now: Date): string => {
  if (!iso) return '-';
  const delta = Date.parse(iso) - now.getTime();
  if (Number.isNaN(delta)) return '-';
  return delta >= 0 ? `in ${formatDuration(delta)}` : `${formatDuration(-delta)} ago`;
};

/** A field value on one line: strings as they are, anything else as compact JSON. */
export const formatValue = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '-' : JSON.stringify(value);

/** A 0-1 confidence as a percentage. */
export const formatConfidence = (confidence: number | undefined): string =>
  confidence === undefined ? '-' : `${Math.round(confidence * 100)}%`;

/** The last part of an S3 key (the file name a person uploaded). */
export const baseName = (key: string | undefined): string | undefined => key?.split('/').at(-1);
