import * as z from 'zod';
import { DECISIONS, DURATION, durationSeconds } from './units.js';

/*
 * A review policy as a team writes it, in YAML (seed 003's workflow definitions, narrowed to what
 * happens to a document after validation): which steps it takes, who may act at each, what
 * happens when nobody does. This schema is the one definition: the loader checks files with it and
 * `schemas/review-policy.schema.json` (what editors complete and check with) is generated from it.
 */

const Duration = z
  .string()
  .regex(DURATION, { message: 'write a duration as a number and a unit: 90s, 30m, 24h or 7d' })
  // zod runs a refinement even when the pattern failed: only a well-formed duration is measured.
  .refine((d) => !DURATION.test(d) || (durationSeconds(d) >= 1 && durationSeconds(d) <= 31_536_000), {
    message: 'a duration is at least 1s and at most 365d',
  });

/**
 * A step id or policy name: lower case, digits, `-` and `_`, starting with a letter. At most 30:
 * a compiled state is named `{policy}:{step}:{part}`, and ASL state names end at 80 characters.
 */
const Name = z.string().regex(/^[a-z][a-z0-9_-]{0,29}$/, {
  message: 'use 1-30 lower-case letters, digits, - or _, starting with a letter (e.g. finance-approval)',
});

/** A role as the review API's tokens carry it (`docket token create --role`). */
const Role = z.string().regex(/^[a-z][a-z0-9_-]{0,29}$/, {
  message: 'a role is a lower-case name of 1-30 characters, e.g. finance',
});

/** Where the document ends when a policy reaches a terminal step. */
export const OUTCOMES = ['approved', 'rejected', 'timed_out'] as const;

const Transition = z
  .object({
    on: z.enum(DECISIONS).describe('the decision that takes this transition'),
    when: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('a condition on the document\'s facts, e.g. total > 10000 && currency == "EUR"'),
    to: Name.describe('the step to go to'),
  })
  .strict();

const ApprovalStep = z
  .object({
    id: Name,
    type: z.literal('approval'),
    role: Role.describe('the role a user needs to decide this step'),
    distinct_from: z
      .array(Name)
      .max(10)
      .optional()
      .describe('four-eyes: a user who decided one of these earlier steps may not decide this one'),
    timeout: Duration.optional().describe(
      'no activity for this long ends the step (default: the policy heartbeat)',
    ),
    on_timeout: Name.optional().describe('the step to escalate to, or a terminal step; default timed_out'),
    transitions: z.array(Transition).min(1).max(20),
  })
  .strict();

const NotificationStep = z
  .object({
    id: Name,
    type: z.literal('notification'),
    channel: Name.describe('the named channel: an SNS topic on AWS, a webhook or file sink locally'),
    message: z
      .string()
      .min(1)
      .max(500)
      .describe('the text sent; {id}, {tenant}, {type}, {total} are filled in'),
    next: Name,
  })
  .strict();

const WaitStep = z
  .object({
    id: Name,
    type: z.literal('wait'),
    duration: Duration,
    next: Name,
  })
  .strict();

const TerminalStep = z
  .object({
    id: Name,
    type: z.literal('terminal'),
    outcome: z.enum(OUTCOMES),
  })
  .strict();

const Step = z.discriminatedUnion('type', [ApprovalStep, NotificationStep, WaitStep, TerminalStep]);

/** A review policy file, as written. */
export const ReviewPolicySchema = z
  .object({
    name: Name.describe('the policy name a workflow records'),
    version: z.int().min(1).max(1_000_000).describe('raise it when the policy changes'),
    description: z.string().max(500).optional(),
    applies_to: z
      .object({
        tenants: z.array(z.string().min(1).max(64)).min(1).max(100).optional(),
        document_types: z
          .array(z.enum(['invoice', 'contract', 'unclassified']))
          .min(1)
          .optional(),
      })
      .strict()
      .optional()
      .describe('which documents it governs; a policy without it is the default for the rest'),
    timeout: Duration.optional().describe(
      'the whole review: no final decision this long after it began ends it timed_out, however often it escalates',
    ),
    max_chain: z
      .int()
      .min(1)
      .max(50)
      .default(10)
      .describe('most steps a document may pass through without a person acting (seed 003: 10)'),
    start: Name.describe('the first step'),
    steps: z.array(Step).min(1).max(50),
  })
  .strict();

/** A review policy, parsed (defaults filled, not yet checked as a whole: see `checkPolicy`). */
export type ReviewPolicy = z.output<typeof ReviewPolicySchema>;
/** One step of a policy. */
export type PolicyStep = ReviewPolicy['steps'][number];
/** An approval step. */
export type ApprovalPolicyStep = Extract<PolicyStep, { type: 'approval' }>;
/** One transition of an approval step. */
export type PolicyTransition = ApprovalPolicyStep['transitions'][number];

/** The JSON Schema of a policy file, for editors (`schemas/review-policy.schema.json`). */
export const reviewPolicyJsonSchema = (): Record<string, unknown> => ({
  ...z.toJSONSchema(ReviewPolicySchema, { io: 'input' }),
  $id: 'https://docket.dev/schemas/review-policy.schema.json',
  title: 'Docket review policy',
});
