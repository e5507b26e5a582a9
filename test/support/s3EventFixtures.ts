import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../fixtures/s3Events/', import.meta.url));

/** The captured S3 "Object Created" events (test/fixtures/s3Events/README.md says where each is from). */
export const s3EventFixtureNames = (): string[] =>
  readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();

/** A fresh copy of one captured event, to change at will. */
export const s3EventFixture = (name: string): Record<string, unknown> & { detail: S3Detail } =>
  JSON.parse(readFileSync(`${DIR}${name}.json`, 'utf8'));

/** The parts of a fixture's detail the tests change. */
interface S3Detail {
  bucket: { name: string };
  object: Record<string, unknown> & { key: string };
  [field: string]: unknown;
}
