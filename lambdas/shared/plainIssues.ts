import type * as z from 'zod';

/*
 * What a person reads when a request body is refused: each problem as a sentence that names the
 * field and the value sent, never zod's own words ("Invalid input: expected string, received
 * undefined"). The review API's 422s and the CLI's refusals are built from these.
 */

/** One problem of a refused body: the field (dotted path) and what is wrong with it, in words. */
export interface PlainIssue {
  field: string;
  message: string;
}

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object of named values',
  record: 'an object of named values',
};

/** A value as it is quoted back to the person who sent it: short, JSON, never the whole of it. */
export const quoteValue = (value: unknown): string => {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const valueAt = (body: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined,
    body,
  );

const kind = (expected: unknown) => KINDS[String(expected)] ?? String(expected);

/**
 * What is wrong with one field, said plainly with the value that was sent. `body` is the whole
 * request body the issue's path points into.
 */
const sentence = (issue: z.core.$ZodIssue, body: unknown): string => {
  const sent = valueAt(body, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return sent === undefined
        ? `is missing; send it as ${kind(issue.expected)}`
        : `is ${quoteValue(sent)}, but must be ${kind(issue.expected)}`;
    case 'invalid_value':
      return `is ${quoteValue(sent)}, but must be one of ${issue.values.map((v) => quoteValue(v)).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string')
        return issue.minimum === 1
          ? 'is empty; write something'
          : `needs at least ${issue.minimum} characters`;
      return `is ${quoteValue(sent)}, but must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string')
        return `is ${String(sent).length} characters long; at most ${issue.maximum} are taken`;
      return `is ${quoteValue(sent)}, but must be at most ${issue.maximum}`;
    case 'invalid_format':
      // A pattern's own words (a schema's custom message) say what is wanted; zod's name the regex.
      if (issue.format === 'regex')
        return /^Invalid/i.test(issue.message)
          ? `is ${quoteValue(sent)}, which is not in the form this field takes`
          : `is ${quoteValue(sent)}: ${issue.message}`;
      return `is ${quoteValue(sent)}, which is not a valid ${issue.format}`;
    default:
      // Custom rules (refinements) carry their own sentence; zod's generic ones do not.
      return /^Invalid input/i.test(issue.message)
        ? `is ${quoteValue(sent)}, which is not valid here`
        : issue.message;
  }
};

/**
 * A refused body's problems, field by field, in words. An unknown key becomes one issue per key
 * ("is not a field this request takes"), named by the key itself.
 */
export const plainIssues = (error: z.ZodError, body: unknown): PlainIssue[] =>
  error.issues.flatMap((issue) => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: at ? `${at}.${key}` : key,
        message: 'is not a field this request takes; leave it out',
      }));
    }
    return [{ field: at || '(body)', message: sentence(issue, body) }];
  });

/** The problems as one sentence for a `message`: `takeOver is "yes", but must be true or false`. */
export const describeIssues = (issues: readonly PlainIssue[], max = 4): string => {
  const listed = issues.slice(0, max).map((i) => `${i.field} ${i.message}`);
  const more = issues.length > max ? `; and ${issues.length - max} more` : '';
  return `${listed.join('; ')}${more}`;
};
