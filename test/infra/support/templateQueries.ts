import type { CfnElement } from 'aws-cdk-lib';
import type { SynthResult } from './synthDocket.js';

/* Queries over a synthesized Docket template, shared by the stack tests. */

/** A resource of the synthesized template. */
export type Resource = { Type: string; Properties: Record<string, unknown> };
/** An IAM policy statement. */
export type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

/** The resources of one type, by logical id. */
export const resources = (s: SynthResult, type: string) =>
  s.template.findResources(type) as Record<string, Resource>;
/** The logical id of a construct's CloudFormation resource. */
export const logicalId = (s: SynthResult, construct: { node: { defaultChild?: unknown } }) =>
  s.stack.getLogicalId(construct.node.defaultChild as CfnElement);
/** IAM and CloudFormation allow one value or a list: always a list. */
export const asArray = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

/** Every statement of every IAM policy in the template (inline role policies included). */
export const statements = (s: SynthResult): Statement[] => {
  const docs = [
    ...Object.values(resources(s, 'AWS::IAM::Policy')).map((r) => r.Properties.PolicyDocument),
    ...Object.values(resources(s, 'AWS::IAM::ManagedPolicy')).map((r) => r.Properties.PolicyDocument),
    ...Object.values(resources(s, 'AWS::IAM::Role')).flatMap((r) =>
      ((r.Properties.Policies as { PolicyDocument: unknown }[] | undefined) ?? []).map(
        (p) => p.PolicyDocument,
      ),
    ),
  ] as { Statement: Statement[] }[];
  return docs.flatMap((d) => d.Statement);
};
/** The logical id a `Fn::GetAtt` points at. */
export const getAttTarget = (value: unknown): string => {
  const target = (value as { 'Fn::GetAtt'?: string[] })['Fn::GetAtt']?.[0];
  if (!target) throw new Error(`not a Fn::GetAtt: ${JSON.stringify(value)}`);
  return target;
};
/** The one resource of a type. */
export const single = (s: SynthResult, type: string): Resource => {
  const [only, ...rest] = Object.values(resources(s, type));
  if (!only || rest.length > 0) throw new Error(`expected exactly one ${type}`);
  return only;
};
/** A Lambda function resource with its logical id. */
export interface FunctionResource extends Resource {
  id: string;
}
/** Functions by their Powertools service name (= lambdas/ folder). */
export const functionsByService = (s: SynthResult): Record<string, FunctionResource> =>
  Object.fromEntries(
    Object.entries(resources(s, 'AWS::Lambda::Function')).map(([id, r]) => [
      (r.Properties.Environment as { Variables: Record<string, string> }).Variables.POWERTOOLS_SERVICE_NAME,
      { id, ...r },
    ]),
  );
/** The statements of the policies attached to one role. */
export const roleStatements = (s: SynthResult, roleLogicalId: string): Statement[] =>
  Object.values(resources(s, 'AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties.Roles).includes(roleLogicalId))
    .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
/** The document workflow's state machine (the stack also has reprocessing's). */
export const workflowMachine = (s: SynthResult): Resource => {
  const found = Object.values(resources(s, 'AWS::StepFunctions::StateMachine')).filter((r) =>
    String(r.Properties.StateMachineName ?? '').endsWith('-workflow'),
  );
  if (found.length !== 1) throw new Error(`expected one workflow state machine, found ${found.length}`);
  return found[0] as Resource;
};
/** The state machine definition as deployed (its DefinitionString, parsed). */
export const deployedDefinition = (s: SynthResult) =>
  JSON.parse(workflowMachine(s).Properties.DefinitionString as string);
