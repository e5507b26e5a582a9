import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** Flattens a resolved CloudFormation value the way cdk-nag names findings (`<Logical.Arn>/x/*`). */
const flatten = (node: unknown): string => {
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return node.map(flatten).join('');
  const value = node as Record<string, unknown>;
  if (value['Fn::Join']) {
    const [delimiter, parts] = value['Fn::Join'] as [string, unknown[]];
    return parts.map(flatten).join(delimiter);
  }
  if (value['Fn::GetAtt']) {
    const [resource, attribute] = value['Fn::GetAtt'] as [string, string];
    return `<${resource}.${attribute}>`;
  }
  if (value.Ref) return `<${flatten(value.Ref)}>`;
  return JSON.stringify(node);
};

/**
 * The cdk-nag v3 finding id of an IAM wildcard resource such as `${bucket.bucketArn}/artifacts/*`:
 * v3 acknowledges each finding by its exact id, and the id holds the resolved logical ids.
 */
export const wildcardResourceFinding = (scope: IConstruct, resource: string): string =>
  `AwsSolutions-IAM5[Resource::${flatten(Stack.of(scope).resolve(resource))}]`;
