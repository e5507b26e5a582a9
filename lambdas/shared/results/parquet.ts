import { parquetWriteBuffer, type SchemaElement } from 'hyparquet-writer';
import type { DocType } from '../documents/index.js';
import { ColumnKind, RESULT_COLUMNS, type ResultColumn } from './columns.js';
import type { ResultRecord } from './record.js';

const DECIMAL_SCALE = ColumnKind.decimal.parquet.scale;
/** Integer digits a DECIMAL(18,6) holds; a larger amount is left null (the `record` column has it). */
const DECIMAL_INTEGER_DIGITS = ColumnKind.decimal.parquet.precision - DECIMAL_SCALE;
const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A decimal string as the unscaled INT64 of a DECIMAL(18,6), exact (no float on the way). */
const unscaledDecimal = (value: unknown): bigint | null => {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return null;
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return null;
  const [, sign, whole = '', fraction = ''] = match;
  const digits = whole.replace(/^0+(?=\d)/, '');
  if (digits.length > DECIMAL_INTEGER_DIGITS || fraction.length > DECIMAL_SCALE) return null;
  const unscaled = BigInt(digits + fraction.padEnd(DECIMAL_SCALE, '0'));
  return sign ? -unscaled : unscaled;
};

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The value a column of `kind` stores for what the record holds: null when it is absent or not of that kind. */
const cell = (kind: ColumnKind, value: unknown): unknown => {
  if (value === undefined || value === null) return null;
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'date': {
      const date = typeof value === 'string' && ISO_DAY.test(value) ? new Date(`${value}T00:00:00Z`) : null;
      return date && !Number.isNaN(date.getTime()) ? date : null;
    }
    case 'timestamp': {
      const time = typeof value === 'string' ? new Date(value) : null;
      return time && !Number.isNaN(time.getTime()) ? time : null;
    }
    case 'decimal':
      return unscaledDecimal(value);
    case 'int':
      return Number.isInteger(value) ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
  }
};

/** The Parquet schema of a doc type's results: every column optional (a record may lack a field). */
export const parquetSchema = (docType: DocType): SchemaElement[] => {
  const columns = RESULT_COLUMNS[docType];
  return [
    { name: 'root', num_children: columns.length },
    ...columns.map(
      (c: ResultColumn): SchemaElement =>
        ({ name: c.name, repetition_type: 'OPTIONAL', ...ColumnKind[c.kind].parquet }) as SchemaElement,
    ),
  ];
};

/**
 * One Parquet file of a doc type's results, rows in the order given (the caller sorts them, so
 * the same records give the same bytes). Typed columns from RESULT_COLUMNS, SNAPPY-compressed, by
 * hyparquet-writer.
 */
export const resultsParquet = (docType: DocType, records: readonly ResultRecord[]): Uint8Array => {
  const columns = RESULT_COLUMNS[docType];
  const buffer = parquetWriteBuffer({
    columnData: columns.map((c) => ({
      name: c.name,
      data: records.map((r) => cell(c.kind, c.read(r))) as never,
      nullable: true,
    })),
    schema: parquetSchema(docType),
    createdBy: 'docket results compaction',
  });
  return new Uint8Array(buffer);
};
