import { isMap, LineCounter, parseDocument } from 'yaml';
import type { CheckedPolicy } from '../checkedPolicy.js';
import type { Condition } from '../conditions.js';
import { resolveRoute } from '../policyRoutes.js';
import { type PolicyStep, type ReviewPolicy, ReviewPolicySchema } from '../schema.js';
import { DECISIONS } from '../units.js';
import { ConditionError, parseCondition } from './parseCondition.js';

/** One problem of a policy file: where (a path into the file, and its line) and what to write instead. */
export interface PolicyIssue {
  path: string;
  line?: number;
  message: string;
}

/** A policy file that cannot be used; `issues` names every problem found. */
export class InvalidReviewPolicyError extends Error {
  override readonly name = 'InvalidReviewPolicy';
  constructor(
    readonly source: string,
    readonly issues: readonly PolicyIssue[],
  ) {
    super(
      `${source} is not a valid review policy:\n${issues
        .map((i) => `  ${source}${i.line ? `:${i.line}` : ''} ${i.path}: ${i.message}`)
        .join('\n')}`,
    );
  }
}

/** `steps[1].transitions[0].to`, as a person finds it in the file. */
const pathText = (path: readonly PropertyKey[]): string =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('') ||
  '(file)';

const stepMap = (policy: ReviewPolicy) => new Map(policy.steps.map((s) => [s.id, s]));

const successors = (step: PolicyStep): string[] => {
  switch (step.type) {
    case 'approval':
      return [...step.transitions.map((t) => t.to), ...(step.on_timeout ? [step.on_timeout] : [])];
    case 'notification':
    case 'wait':
      return [step.next];
    case 'terminal':
      return [];
  }
};

/** Checks that need the whole policy: references, decisions covered, reachability, chains. */
const wholePolicyIssues = (policy: ReviewPolicy, conditions: Map<string, Condition>): PolicyIssue[] => {
  const issues: Array<{ path: PropertyKey[]; message: string }> = [];
  const steps = stepMap(policy);
  const ids = [...steps.keys()].join(', ');
  const refer = (path: PropertyKey[], id: string, what = 'step') => {
    if (!steps.has(id)) issues.push({ path, message: `there is no ${what} "${id}"; the steps are ${ids}` });
  };
  policy.steps.forEach((step, i) => {
    if (policy.steps.findIndex((s) => s.id === step.id) !== i) {
      issues.push({
        path: ['steps', i, 'id'],
        message: `"${step.id}" is used by an earlier step; give each step its own id`,
      });
    }
  });
  refer(['start'], policy.start);
  policy.steps.forEach((step, i) => {
    if (step.type === 'notification' || step.type === 'wait') refer(['steps', i, 'next'], step.next);
    if (step.type !== 'approval') return;
    if (step.on_timeout) refer(['steps', i, 'on_timeout'], step.on_timeout);
    for (const [k, earlier] of (step.distinct_from ?? []).entries()) {
      refer(['steps', i, 'distinct_from', k], earlier);
      if (steps.has(earlier) && steps.get(earlier)?.type !== 'approval') {
        issues.push({
          path: ['steps', i, 'distinct_from', k],
          message: `"${earlier}" is not an approval step: four-eyes compares the people who decided approval steps`,
        });
      }
    }
    step.transitions.forEach((t, j) => {
      refer(['steps', i, 'transitions', j, 'to'], t.to);
      if (t.when === undefined) return;
      try {
        conditions.set(`${i}/${j}`, parseCondition(t.when));
      } catch (error) {
        if (!(error instanceof ConditionError)) throw error;
        issues.push({ path: ['steps', i, 'transitions', j, 'when'], message: error.message });
      }
    });
    for (const decision of DECISIONS) {
      const rows = step.transitions.map((t, j) => ({ t, j })).filter(({ t }) => t.on === decision);
      const fallback = rows.findIndex(({ t }) => t.when === undefined);
      if (rows.length > 0 && fallback !== rows.length - 1) {
        const after = rows[fallback + 1];
        issues.push({
          path: ['steps', i, 'transitions', fallback === -1 ? (rows.at(-1)?.j ?? 0) : (after?.j ?? 0)],
          message:
            fallback === -1
              ? `every "${decision}" transition has a condition; end them with one without "when", for the documents none matches`
              : `this "${decision}" transition comes after one without a condition and is never taken; move it up`,
        });
      }
      if (rows.length === 0 && decision !== 'correct') {
        issues.push({
          path: ['steps', i, 'transitions'],
          message: `no transition for "${decision}"; add { on: ${decision}, to: <step> } (a "correct" without its own transition follows "approve")`,
        });
      }
    }
  });
  if (issues.length > 0) return issues.map((i) => ({ path: pathText(i.path), message: i.message }));
  return graphIssues(policy).map((i) => ({ path: pathText(i.path), message: i.message }));
};

/** Every step reached from the start, every step able to end, no endless run of unattended steps. */
const graphIssues = (policy: ReviewPolicy): Array<{ path: PropertyKey[]; message: string }> => {
  const steps = stepMap(policy);
  const issues: Array<{ path: PropertyKey[]; message: string }> = [];
  const reached = new Set<string>();
  const queue = [policy.start];
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (reached.has(id)) continue;
    reached.add(id);
    queue.push(...successors(steps.get(id) as PolicyStep));
  }
  const ends = new Set(policy.steps.filter((s) => s.type === 'terminal').map((s) => s.id));
  for (let grew = true; grew; ) {
    grew = false;
    for (const step of policy.steps) {
      if (!ends.has(step.id) && successors(step).some((n) => ends.has(n))) {
        ends.add(step.id);
        grew = true;
      }
    }
  }
  policy.steps.forEach((step, i) => {
    if (!reached.has(step.id)) {
      issues.push({
        path: ['steps', i],
        message: `"${step.id}" is never reached from "${policy.start}"; remove it or lead to it`,
      });
    } else if (!ends.has(step.id)) {
      issues.push({
        path: ['steps', i],
        message: `from "${step.id}" no terminal step can be reached; the document would never finish`,
      });
    }
  });
  // Routes are followed to their ends, which a step that never finishes does not have.
  if (policy.steps.some((step) => !ends.has(step.id))) return issues;
  issues.push(...routeIssues(policy));
  // The longest run of steps nobody acts in (notification, wait): a cycle of them never ends.
  const unattended = (id: string, seen: readonly string[]): number => {
    const step = steps.get(id) as PolicyStep;
    if (step.type === 'approval' || step.type === 'terminal') return 0;
    if (seen.includes(id)) return Number.POSITIVE_INFINITY;
    return 1 + unattended(step.next, [...seen, id]);
  };
  policy.steps.forEach((step, i) => {
    const run = unattended(step.id, []);
    if (run > policy.max_chain) {
      issues.push({
        path: ['steps', i],
        message: Number.isFinite(run)
          ? `${run} steps follow one another from "${step.id}" with nobody acting, more than max_chain (${policy.max_chain})`
          : `"${step.id}" starts a loop of notification and wait steps that never reaches a person or an end`,
      });
    }
  });
  return issues;
};

/** The outcome each way out of an approval step may end in, once unattended steps are passed. */
const ALLOWED_ENDS: Record<string, readonly string[]> = {
  approve: ['step', 'approved'],
  correct: ['step', 'approved'],
  reject: ['step', 'rejected'],
};

/**
 * What the compiled definition can run: a policy starts with an approval step (its entry is a
 * decision that needs a person); a decision ends where it means (an approval never ends
 * `rejected`); a timeout escalates straight to an approval step or ends `timed_out`.
 */
const routeIssues = (policy: ReviewPolicy): Array<{ path: PropertyKey[]; message: string }> => {
  const issues: Array<{ path: PropertyKey[]; message: string }> = [];
  const steps = stepMap(policy);
  if (steps.get(policy.start)?.type !== 'approval') {
    issues.push({
      path: ['start'],
      message: `start with an approval step; "${policy.start}" is a ${steps.get(policy.start)?.type} step`,
    });
  }
  policy.steps.forEach((step, i) => {
    if (step.type !== 'approval') return;
    step.transitions.forEach((t, j) => {
      const end = resolveRoute(policy, t.to);
      if (!ALLOWED_ENDS[t.on]?.includes(end.ends)) {
        issues.push({
          path: ['steps', i, 'transitions', j, 'to'],
          message: `"${t.on}" leads to an end ${end.ends}; lead it to an approval step or a terminal step with outcome ${t.on === 'reject' ? 'rejected' : 'approved'}`,
        });
      }
    });
    if (step.on_timeout === step.id) {
      issues.push({
        path: ['steps', i, 'on_timeout'],
        message: 'a step cannot escalate to itself; name another approval step',
      });
    }
    const target = step.on_timeout ? steps.get(step.on_timeout) : undefined;
    if (
      target &&
      target.type !== 'approval' &&
      !(target.type === 'terminal' && target.outcome === 'timed_out')
    ) {
      issues.push({
        path: ['steps', i, 'on_timeout'],
        message: `on_timeout escalates to an approval step or ends at a terminal step with outcome timed_out; "${target.id}" is neither`,
      });
    }
  });
  return issues;
};

/**
 * Reads a policy file's YAML, checks it against the schema and as a whole, and returns it with its
 * conditions parsed. Throws `InvalidReviewPolicyError` listing every problem with its path and line.
 */
export const parseReviewPolicy = (text: string, source: string): CheckedPolicy => {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (document.errors.length > 0) {
    throw new InvalidReviewPolicyError(
      source,
      document.errors.map((e) => ({
        path: '(file)',
        line: lines.linePos(e.pos[0]).line,
        message: `not YAML: ${e.message.split('\n')[0]}`,
      })),
    );
  }
  const lineOf = (path: readonly PropertyKey[]): number | undefined => {
    const node = isMap(document.contents) ? document.getIn(path as unknown[], true) : undefined;
    const offset = (node as { range?: [number, number, number] } | undefined)?.range?.[0];
    return offset === undefined ? undefined : lines.linePos(offset).line;
  };
  const parsed = ReviewPolicySchema.safeParse(document.toJS());
  if (!parsed.success) {
    throw new InvalidReviewPolicyError(
      source,
      parsed.error.issues.map((i) => ({ path: pathText(i.path), line: lineOf(i.path), message: i.message })),
    );
  }
  const conditions = new Map<string, Condition>();
  const issues = wholePolicyIssues(parsed.data, conditions);
  if (issues.length > 0) {
    throw new InvalidReviewPolicyError(
      source,
      issues.map((i) => ({ ...i, line: lineOf(pathSegments(i.path)) })),
    );
  }
  return { policy: parsed.data, conditions };
};

/** `steps[1].transitions[0]` back into `['steps', 1, 'transitions', 0]`. */
const pathSegments = (path: string): PropertyKey[] =>
  path === '(file)'
    ? []
    : path.split(/\.|(?=\[)/).map((s) => (s.startsWith('[') ? Number(s.slice(1, -1)) : s));
