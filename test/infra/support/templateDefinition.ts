import type { Template } from 'aws-cdk-lib/assertions';
import type { Stage, StageArns } from '../../../statemachine/index.js';

/*
 * The state machine definition as the synthesized CloudFormation template deploys it, resolved
 * the way CloudFormation resolves it: the DefinitionString (text, or an Fn::Join of text, Ref and
 * Fn::GetAtt) with its DefinitionSubstitutions filled in. Function references become the ARNs a
 * test chooses for each stage (the local runtime's, or example ones), found through the function's
 * POWERTOOLS_SERVICE_NAME, which is its stage.
 */

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

/** Raised for a template shape this resolver does not know: better than a wrong definition. */
export class UnresolvableTemplateError extends Error {
  override readonly name = 'UnresolvableTemplate';
}

/** The stage of each Lambda function of the template, by logical id. */
const stagesByLogicalId = (resources: Resources): Map<string, Stage> =>
  new Map(
    Object.entries(resources)
      .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
      .map(([id, r]) => [
        id,
        (r.Properties.Environment as { Variables: Record<string, string> }).Variables
          .POWERTOOLS_SERVICE_NAME as Stage,
      ]),
  );

/** Which of the stack's state machines: the document workflow's, or reprocessing's. */
export type MachineName = 'workflow' | 'reprocess';

/** The state machine whose name ends in `-{which}` (the stack names them `{stack}-{which}`). */
const stateMachineOf = (resources: Resources, which: MachineName) => {
  const machines = Object.values(resources).filter(
    (r) =>
      r.Type === 'AWS::StepFunctions::StateMachine' &&
      String(r.Properties.StateMachineName ?? '').endsWith(`-${which}`),
  );
  if (machines.length !== 1)
    throw new UnresolvableTemplateError(`expected one ${which} state machine, found ${machines.length}`);
  return machines[0] as Resources[string];
};

/**
 * The deployed definition as JSON text and as an object, every function reference replaced by
 * `arns[stage]`. Throws `UnresolvableTemplateError` for an intrinsic it does not know, or a
 * placeholder left unfilled.
 */
export const definitionFromTemplate = (
  template: Template,
  arns: StageArns | Readonly<Record<string, string>>,
  which: MachineName = 'workflow',
) => {
  const resources = template.toJSON().Resources as Resources;
  const stages = stagesByLogicalId(resources);
  const functionArn = (logicalId: string): string => {
    const stage = stages.get(logicalId);
    if (!stage || !(stage in arns))
      throw new UnresolvableTemplateError(`${logicalId} is not a stage function`);
    return (arns as Record<string, string>)[stage] as string;
  };
  const resolve = (value: unknown): string => {
    if (typeof value === 'string') return value;
    const v = value as Record<string, unknown>;
    if (Array.isArray(v['Fn::GetAtt']) && v['Fn::GetAtt'][1] === 'Arn')
      return functionArn(v['Fn::GetAtt'][0]);
    if (typeof v.Ref === 'string') return functionArn(v.Ref);
    if (Array.isArray(v['Fn::Join'])) {
      const [separator, parts] = v['Fn::Join'] as [string, unknown[]];
      return parts.map(resolve).join(separator);
    }
    throw new UnresolvableTemplateError(`cannot resolve ${JSON.stringify(value)}`);
  };
  const machine = stateMachineOf(resources, which);
  let text = resolve(machine.Properties.DefinitionString);
  const substitutions = (machine.Properties.DefinitionSubstitutions ?? {}) as Record<string, unknown>;
  for (const [key, ref] of Object.entries(substitutions)) text = text.replaceAll(`\${${key}}`, resolve(ref));
  if (text.includes('${'))
    throw new UnresolvableTemplateError('a DefinitionSubstitutions placeholder was left unfilled');
  return { text, definition: JSON.parse(text) as Record<string, unknown> };
};

/** The timeout (seconds) CloudFormation gives each stage function. */
export const functionTimeouts = (template: Template): Map<Stage, number> => {
  const resources = template.toJSON().Resources as Resources;
  const stages = stagesByLogicalId(resources);
  return new Map(
    [...stages].map(([id, stage]) => [stage, (resources[id]?.Properties.Timeout as number | undefined) ?? 3]),
  );
};
