import type { PolicyStep, ReviewPolicy } from '../schema.js';
import { durationSeconds } from '../units.js';

/** A duration as written, or the fallback it takes when absent. */
const timeoutText = (timeout: string | undefined): string =>
  timeout ? `${timeout} (${durationSeconds(timeout)} s)` : 'the review heartbeat';

const stepLine = (step: PolicyStep): string[] => {
  switch (step.type) {
    case 'approval':
      return [
        `${step.id}: approval by ${step.role}${step.distinct_from ? `, not by whoever decided ${step.distinct_from.join(' or ')}` : ''}`,
        ...step.transitions.map((t) => `    ${t.on}${t.when ? ` when ${t.when}` : ''} -> ${t.to}`),
        `    no activity for ${timeoutText(step.timeout)} -> ${step.on_timeout ?? 'ends timed_out'}`,
      ];
    case 'notification':
      return [`${step.id}: notify ${step.channel} "${step.message}" -> ${step.next}`];
    case 'wait':
      return [`${step.id}: wait ${step.duration} -> ${step.next}`];
    case 'terminal':
      return [`${step.id}: end ${step.outcome}`];
  }
};

/** The policy as text: what it applies to, then each step with its transitions. */
export const policyText = (policy: ReviewPolicy): string => {
  const applies = policy.applies_to;
  const scope = [
    applies?.document_types ? `document types ${applies.document_types.join(', ')}` : 'every document type',
    applies?.tenants ? `tenants ${applies.tenants.join(', ')}` : 'every tenant',
  ].join(', ');
  return [
    `${policy.name} v${policy.version}${policy.description ? `: ${policy.description}` : ''}`,
    `applies to ${scope}`,
    `starts at ${policy.start}${policy.timeout ? `; the whole review at most ${timeoutText(policy.timeout)}` : ''}; at most ${policy.max_chain} unattended steps in a row`,
    '',
    ...policy.steps.flatMap(stepLine),
  ].join('\n');
};

/** Mermaid escapes: a label in quotes may not hold a quote. */
const label = (text: string) => text.replaceAll('"', '#quot;');
/** A node id Mermaid reads as one name (`timed-out` would read as the start of an arrow). */
const node = (id: string) => `s_${id.replace(/[^a-z0-9]/g, '_')}`;

/** The policy as a Mermaid flowchart (`flowchart TD`), for the README and reviews of a policy change. */
export const policyMermaid = (policy: ReviewPolicy): string => {
  const lines = ['flowchart TD', `  start(( )) --> ${node(policy.start)}`];
  for (const step of policy.steps) {
    switch (step.type) {
      case 'approval':
        lines.push(`  ${node(step.id)}["${label(`${step.id}: approval by ${step.role}`)}"]`);
        for (const t of step.transitions) {
          lines.push(
            `  ${node(step.id)} -->|"${label(t.when ? `${t.on} if ${t.when}` : t.on)}"| ${node(t.to)}`,
          );
        }
        if (step.on_timeout) lines.push(`  ${node(step.id)} -.->|timeout| ${node(step.on_timeout)}`);
        break;
      case 'notification':
        lines.push(
          `  ${node(step.id)}[/"${label(`${step.id}: notify ${step.channel}`)}"/] --> ${node(step.next)}`,
        );
        break;
      case 'wait':
        lines.push(
          `  ${node(step.id)}{{"${label(`${step.id}: wait ${step.duration}`)}"}} --> ${node(step.next)}`,
        );
        break;
      case 'terminal':
        lines.push(`  ${node(step.id)}(["${label(`${step.id}: ${step.outcome}`)}"])`);
        break;
    }
  }
  return lines.join('\n');
};
