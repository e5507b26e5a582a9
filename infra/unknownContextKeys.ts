import { CONTEXT_KEYS } from './contextSchema.js';

/**
 * Context keys the CDK itself may put in the context with neither a `:` nor a leading `@`
 * (`cdk acknowledge`, `cdk cli-telemetry`, `cdk migrate`). Feature flags (`@aws-cdk/...`), CLI
 * settings (`aws:cdk:...`) and cached lookups (`availability-zones:...`) are told by their form.
 */
const CDK_CONTEXT_KEYS: readonly string[] = ['acknowledged-issue-numbers', 'cli-telemetry', 'cdk-migrate'];

/** Levenshtein distance, case-insensitive: `ReviewTimeout` is as close as it gets to `reviewTimeout`. */
const editDistance = (a: string, b: string): number => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) {
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[y.length] ?? 0;
};

/**
 * Keys that look like Docket settings but are none (`reviewTimout`): without this check a typo
 * is silently ignored and the default deployed. Each issue names the closest Docket key.
 */
export const unknownKeyIssues = (contextKeys: Iterable<string>): string[] =>
  [...contextKeys]
    .filter((key) => !key.includes(':') && !key.startsWith('@') && !CDK_CONTEXT_KEYS.includes(key))
    .filter((key) => !(CONTEXT_KEYS as readonly string[]).includes(key))
    .map((key) => {
      const [closest, distance] = CONTEXT_KEYS.map((k) => [k, editDistance(key, k)] as const).reduce(
        (best, next) => (next[1] < best[1] ? next : best),
      );
      const hint =
        distance <= Math.max(2, Math.floor(key.length / 3))
          ? `did you mean ${closest}?`
          : `the closest Docket key is ${closest}`;
      return `${key}: not a Docket context key; ${hint}`;
    });
