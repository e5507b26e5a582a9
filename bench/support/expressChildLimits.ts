/**
 * What can be read off a definition of the nested design without running it: the longest it can
 * run (Express stops at five minutes) and which kinds of state it holds.
 */

import type { AslTaskState } from '../../statemachine/index.js';
import type { DesignDefinition, DesignState } from './expressChildDesign.js';

/** One child Task's worst case: every attempt its retriers allow runs to its timeout, plus the delays. */
export const taskWorstCaseSeconds = (state: Pick<AslTaskState, 'TimeoutSeconds' | 'Retry'>): number => {
  let seconds = state.TimeoutSeconds;
  for (const retrier of state.Retry ?? []) {
    const attempts = retrier.MaxAttempts ?? 3;
    for (let n = 0; n < attempts; n++) {
      const delay = (retrier.IntervalSeconds ?? 1) * (retrier.BackoffRate ?? 2) ** n;
      seconds += state.TimeoutSeconds + Math.min(delay, retrier.MaxDelaySeconds ?? Number.POSITIVE_INFINITY);
    }
  }
  return seconds;
};

/**
 * The longest a definition can run before it ends: its Tasks' worst cases along the slowest path
 * (Choices branch: the slowest branch counts), plus `perStateSeconds` for every state entered.
 * The definition must be acyclic, as the child is; a cycle throws.
 */
export const childWorstCaseSeconds = (definition: DesignDefinition, perStateSeconds = 0): number => {
  const memo = new Map<string, number>();
  const visit = (name: string, onPath: Set<string>): number => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    if (onPath.has(name)) throw new Error(`the definition loops through ${name}`);
    const state = definition.States[name];
    if (!state) throw new Error(`state ${name} is not in the definition`);
    const path = new Set(onPath).add(name);
    const own = perStateSeconds + (state.Type === 'Task' ? taskWorstCaseSeconds(state) : 0);
    const nexts = [
      ...(state.Type === 'Choice' ? [...state.Choices.map((c) => c.Next), state.Default] : []),
      ...(state.Type === 'Task' ? (state.Catch ?? []).map((c) => c.Next) : []),
      ...('Next' in state && state.Next !== undefined ? [state.Next] : []),
    ];
    const seconds = own + Math.max(0, ...nexts.map((next) => visit(next, path)));
    memo.set(name, seconds);
    return seconds;
  };
  return visit(definition.StartAt, new Set());
};

/** Whether a definition names a Task that waits for a callback (`.waitForTaskToken`). */
export const hasCallbackTask = (definition: DesignDefinition): boolean =>
  Object.values(definition.States).some((s) => s.Type === 'Task' && s.Resource.endsWith('.waitForTaskToken'));

/** The names of a definition's states of one type. */
export const statesOfType = (definition: DesignDefinition, type: DesignState['Type']): string[] =>
  Object.entries(definition.States)
    .filter(([, s]) => s.Type === type)
    .map(([name]) => name);
