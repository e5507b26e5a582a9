/** Region and account the local endpoint pretends to live in; they appear in every ARN. */
export interface AccountScope {
  readonly region: string;
  readonly accountId: string;
}

/** ARN of a state machine: `arn:aws:states:{region}:{account}:stateMachine:{name}`. */
export const stateMachineArn = (scope: AccountScope, name: string): string =>
  `arn:aws:states:${scope.region}:${scope.accountId}:stateMachine:${name}`;

/** ARN of an execution: `arn:aws:states:{region}:{account}:execution:{machine}:{name}`. */
export const executionArn = (scope: AccountScope, machineName: string, name: string): string =>
  `arn:aws:states:${scope.region}:${scope.accountId}:execution:${machineName}:${name}`;

/** ARN of a Lambda function in the scope. */
export const functionArn = (scope: AccountScope, name: string): string =>
  `arn:aws:lambda:${scope.region}:${scope.accountId}:function:${name}`;

const STATES_ARN = /^arn:aws[a-z-]*:states:([a-z0-9-]+):(\d{12}):(stateMachine|execution):(.+)$/;

/** The machine name of a state machine ARN, or undefined when it is not one. */
export const parseStateMachineArn = (arn: string): { name: string } | undefined => {
  const match = STATES_ARN.exec(arn);
  if (match?.[3] !== 'stateMachine' || match[4] === undefined || match[4].includes(':')) return undefined;
  return { name: match[4] };
};

/** Machine and execution names of an execution ARN, or undefined when it is not one. */
export const parseExecutionArn = (arn: string): { machineName: string; name: string } | undefined => {
  const match = STATES_ARN.exec(arn);
  const rest = match?.[3] === 'execution' ? match[4] : undefined;
  const parts = rest?.split(':');
  if (parts?.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { machineName: parts[0], name: parts[1] };
};

const FUNCTION_REF =
  /^(?:arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:|\d{12}:function:)?([A-Za-z0-9_-]{1,140})(?::(\$LATEST|[A-Za-z0-9_-]+))?$/;

/**
 * The function name in any form Lambda accepts as `FunctionName`: a name, `name:qualifier`, a
 * partial ARN (`123456789012:function:name`) or a full ARN. Undefined when it is none of them.
 */
export const functionNameOf = (ref: string): string | undefined => FUNCTION_REF.exec(ref)?.[1];

// Whitespace, brackets, wildcards, the listed punctuation and control characters (AWS rules).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects.
const FORBIDDEN_IN_NAME = /[\s<>{}[\]?*"#%\\^|~`$&,;:/\u0000-\u001f\u007f-\u009f]/;

/** Whether `name` is a valid execution or state machine name (1-80 characters, no forbidden ones). */
export const isValidResourceName = (name: string): boolean =>
  name.length >= 1 && name.length <= 80 && !FORBIDDEN_IN_NAME.test(name);
