import { invalidParameter, missingParameter } from './errors.js';

/** A decoded JSON request body (or a nested structure in one). */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not an array, not null). */
export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Typed reads of one request's parameters: each checks the JSON type and the range and throws
 * AWS's error (MissingParameter, InvalidParameterValue) naming the parameter, so nothing
 * unchecked reaches the store. `prefix` names the place inside a batch (`Entries.3.`).
 */
export class Params {
  constructor(
    readonly input: JsonObject,
    private readonly prefix = '',
  ) {}

  private name(key: string) {
    return `${this.prefix}${key}`;
  }

  has(key: string): boolean {
    return this.input[key] !== undefined && this.input[key] !== null;
  }

  optionalString(key: string): string | undefined {
    const value = this.input[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw invalidParameter(this.name(key), 'must be a string.', value);
    return value;
  }

  /** A required string; empty counts as missing, as AWS treats it. */
  string(key: string): string {
    const value = this.optionalString(key);
    if (value === undefined || value === '') throw missingParameter(this.name(key));
    return value;
  }

  optionalInteger(key: string, min: number, max: number): number | undefined {
    const value = this.input[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value))
      throw invalidParameter(this.name(key), 'must be an integer.', value);
    if (value < min || value > max)
      throw invalidParameter(this.name(key), `must be between ${min} and ${max}, if provided.`, value);
    return value;
  }

  integer(key: string, min: number, max: number): number {
    const value = this.optionalInteger(key, min, max);
    if (value === undefined) throw missingParameter(this.name(key));
    return value;
  }

  /** A list of strings (absent: empty). */
  stringList(key: string): string[] {
    const value = this.input[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
      throw invalidParameter(this.name(key), 'must be a list of strings.');
    if (value.length > 1000) throw invalidParameter(this.name(key), 'lists at most 1000 names.');
    return value as string[];
  }

  /** A map (JSON object), or undefined when absent. */
  optionalObject(key: string): JsonObject | undefined {
    const value = this.input[key];
    if (value === undefined || value === null) return undefined;
    if (!isObject(value)) throw invalidParameter(this.name(key), 'must be a map.');
    return value;
  }

  /** A list of structures, or undefined when absent. */
  optionalObjectList(key: string): JsonObject[] | undefined {
    const value = this.input[key];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) throw invalidParameter(this.name(key), 'must be a list.');
    if (!value.every(isObject)) throw invalidParameter(this.name(key), 'must be a list of structures.');
    return value;
  }
}

/** Characters SQS accepts in a body or a string attribute (the XML 1.0 character set). */
const INVALID_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** True when `text` holds a character SQS refuses (a lone surrogate included). */
export const hasInvalidCharacters = (text: string): boolean => INVALID_CHARACTER.test(text);
