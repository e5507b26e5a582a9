import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import * as z from 'zod';
import { WorkflowState } from '../../statemachine/states.js';
import { UsageError } from '../errors.js';

/**
 * The mapping of an older pipeline's state strings to Docket's states, written in YAML:
 *
 *   states:
 *     fetching: parsing_pdf
 *     auto_done: completed
 *     "*": legacy          # every string not named above; required
 *
 * Names are matched exactly (case and all). `"*"` is the catch-all seed 004 asks for: history that
 * maps to nothing is kept as `legacy`, never dropped.
 */
export const MappingSchema = z.strictObject({
  states: z
    .record(z.string().min(1).max(200), z.enum(WorkflowState))
    .refine((states) => Object.hasOwn(states, '*'), {
      message: 'add "*": legacy (or another state) for every state string the mapping does not name',
    }),
});

/** A checked mapping. */
export interface StateMapping {
  /** Docket's state for a legacy string, and whether the string was named (not the catch-all). */
  map(state: string): { to: WorkflowState; named: boolean };
}

/** Builds the mapping from its parsed form. */
export const stateMapping = (mapping: z.infer<typeof MappingSchema>): StateMapping => {
  const named = new Map(Object.entries(mapping.states).filter(([k]) => k !== '*'));
  const fallback = mapping.states['*'] as WorkflowState;
  return {
    map: (state) => {
      const to = named.get(state);
      return to === undefined ? { to: fallback, named: false } : { to, named: true };
    },
  };
};

/** Reads and checks a mapping file; a bad one is a usage error naming the line of YAML to fix. */
export const readMapping = async (file: string): Promise<StateMapping> => {
  let value: unknown;
  try {
    value = parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`The mapping ${file} is not readable YAML: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const parsed = MappingSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => {
      const path = i.path.join('.') || '(top)';
      const expected =
        i.code === 'invalid_value'
          ? `one of Docket's states (${Object.values(WorkflowState).join(', ')})`
          : i.message;
      return `${path}: ${expected}`;
    });
    throw new UsageError(`The mapping ${file} does not check: ${issues.join('; ')}.`);
  }
  return stateMapping(parsed.data);
};
