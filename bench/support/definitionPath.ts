/**
 * The part of a definition the walker reads: today's (`AslDefinition`) and the nested design's
 * (bench/support/expressChildDesign.ts) both fit.
 */
export interface WalkableDefinition {
  StartAt: string;
  States: Record<string, { Type: string }>;
}

/** What the Choice states of one path will read: JSONPath (`$.a.b`) -> value. */
export type PathPayload = Record<string, unknown>;

/** The states one execution enters, in order, and the Lambda-backed Tasks among them. */
export interface DefinitionPath {
  states: string[];
  tasks: string[];
  end: string;
}

type ChoiceRule = {
  Variable?: string;
  IsPresent?: boolean;
  StringEquals?: string;
  BooleanEquals?: boolean;
  Next: string;
};

const matches = (rule: ChoiceRule, payload: PathPayload): boolean => {
  const value = rule.Variable === undefined ? undefined : payload[rule.Variable];
  if (rule.IsPresent !== undefined) return (value !== undefined) === rule.IsPresent;
  if (rule.StringEquals !== undefined) return value === rule.StringEquals;
  if (rule.BooleanEquals !== undefined) return value === rule.BooleanEquals;
  throw new Error(`Choice rule not understood by the cost walker: ${JSON.stringify(rule)}`);
};

/**
 * Follows the definition from `StartAt` the way one execution would, with every Task succeeding
 * and each Choice reading `payload` (updated after a Task by `after[task]`, or for a Task called
 * more than once, such as a polled Ocr, by `each[task]()` on every call). Every state entered is
 * one billed state transition of a Standard workflow. A path ends in Succeed, Fail, or a state with
 * `End: true` (the nested design's child ends in a Pass).
 */
export const definitionPath = (
  definition: WalkableDefinition,
  start: PathPayload,
  after: Record<string, PathPayload> = {},
  each: Record<string, () => PathPayload> = {},
): DefinitionPath => {
  const payload: PathPayload = { ...start };
  const states: string[] = [];
  const tasks: string[] = [];
  let at: string | undefined = definition.StartAt;
  while (at) {
    if (states.length > 200) throw new Error('the path does not end: a loop without a failure?');
    const state = definition.States[at] as {
      Type: string;
      Next?: string;
      End?: boolean;
      Choices?: ChoiceRule[];
      Default?: string;
    };
    if (!state) throw new Error(`state ${at} is not in the definition`);
    states.push(at);
    if (state.Type === 'Succeed' || state.Type === 'Fail' || state.End) return { states, tasks, end: at };
    if (state.Type === 'Task') {
      tasks.push(at);
      Object.assign(payload, after[at], each[at]?.());
    }
    at =
      state.Type === 'Choice'
        ? (state.Choices?.find((r) => matches(r, payload))?.Next ?? state.Default)
        : state.Next;
  }
  throw new Error(`the path stopped at ${states.at(-1)} without a Next`);
};
