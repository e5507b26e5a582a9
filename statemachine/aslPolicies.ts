import type { AslChoiceState, AslCompoundChoiceRule, AslCondition, AslState, AslTaskState } from './asl.js';
import { REVIEW_WINDOW, requestReviewTask, reviewExpired, reviewWindowChoice } from './aslReview.js';
import { Outcome } from './outcomes.js';
import type { CheckedPolicy } from './reviewPolicies/checkedPolicy.js';
// The builder's modules directly, not the component's index: its input schemas (zod) would ride
// along into every Lambda bundle that imports statemachine/.
import { decisionRoutes } from './reviewPolicies/policyRoutes.js';
import { reviewStepOf } from './reviewPolicies/reviewStep.js';
import type { ReviewPolicy } from './reviewPolicies/schema.js';
import { specificity } from './reviewPolicies/specificity.js';
import { durationSeconds } from './reviewPolicies/units.js';
import { STAGES, type Stage } from './stages.js';

/*
 * Review policies compiled into the one definition. Why one state machine with a branch per
 * policy, not a child execution per policy: a document's whole life stays one execution (one
 * history, one redrive, one ARN on the item), the resume and retry routers keep working, and a
 * policy change is a deploy that running executions do not see (Step Functions runs an execution on
 * the definition it started with), so a review already open finishes under its version.
 *
 * Each approval step becomes: Enter (a Pass naming the step) > Schedule (schedule-review: the
 * step's heartbeat) > Window > Request (waitForTaskToken with that heartbeat) > Apply (apply-review,
 * given the step's routes as data) > Next (a Choice on the step apply-review chose). Timeouts go to
 * the escalation step's Escalate pass, or to MarkTimedOut; a wait step is a Wait state; a
 * notification step is a Pass (its message is put in the outbox by the transition that decided to
 * pass it, so it goes out exactly when the decision is recorded, and a failed delivery never holds
 * the document).
 */

/** Where the selection and resume Choices read the document's tenant and type (validate's result). */
export const ROUTING = '$.result.routing';
/** Where the compiled definition keeps the approval step the review is at. */
export const REVIEW_STEP = '$.reviewStep';

/** What the policy branches need from the definition builder. */
export interface PolicyBuild {
  /**
   * The builder's Task for a stage (its ARN, stage parameters with `extra`, Retry and Catch), so
   * a policy's Schedule and Apply are built as every other stage's Task is.
   */
  stage: (stage: Stage, next: string, extra: Record<string, unknown>, resultPath: string) => AslTaskState;
  requestReviewArn: string;
  stageParameters: Record<string, unknown>;
  reviewMaxSeconds: number;
}

/** The compiled branches, and where a review enters them. */
export interface PolicyStates {
  /** After validation asked for a person: the Choice that picks the policy. */
  reviewEntry: string;
  /** Where the resume router sends a workflow in review_required. */
  resumeEntry: string;
  /** True when a policy applies to every document: the built-in default's states are then left out. */
  replacesDefault: boolean;
  states: Record<string, AslState>;
}

const name = (policy: ReviewPolicy, step: string, part: string) => `${policy.name}:${step}:${part}`;

/** The state a route to `step` enters: an approval's Enter, a wait or notification, or an end. */
const entryOf = (policy: ReviewPolicy, stepId: string): string => {
  const step = policy.steps.find((s) => s.id === stepId);
  if (step?.type === 'terminal') {
    // apply-review already made the decision's transition: approved is validated, on to compare.
    return step.outcome === 'approved'
      ? STAGES.compare.task
      : step.outcome === 'rejected'
        ? Outcome.reviewRejected
        : STAGES['mark-timed-out'].task;
  }
  return name(
    policy,
    stepId,
    step?.type === 'approval' ? 'Enter' : step?.type === 'wait' ? 'Wait' : 'Notify',
  );
};

const approvalStates = (
  checked: CheckedPolicy,
  step: Extract<ReviewPolicy['steps'][number], { type: 'approval' }>,
  build: PolicyBuild,
): Record<string, AslState> => {
  const { policy } = checked;
  const part = (p: string) => name(policy, step.id, p);
  const timedOut = step.on_timeout
    ? entryAfterTimeout(policy, step.id, step.on_timeout)
    : STAGES['mark-timed-out'].task;
  const targets = {
    expired: part('Expired'),
    request: part('Request'),
    decided: part('Apply'),
    timedOut,
    ...(policy.timeout && { policyExpired: part('ReviewOver') }),
  };
  const stepParameters = { ...build.stageParameters, 'reviewStep.$': REVIEW_STEP };
  const routes = decisionRoutes(checked, step.id);
  const nextChoices = [...new Set(routes.map((r) => r.to))].map((to) => ({
    Variable: '$.result.next',
    StringEquals: to,
    Next: entryOf(policy, to),
  }));
  const states: Record<string, AslState> = {
    // A step only an escalation reaches has no Enter: its Escalate pass names it.
    ...(enteredByDecision(policy).has(step.id) && {
      [part('Enter')]: {
        Type: 'Pass',
        Comment: `Policy ${policy.name} v${policy.version}: approval step ${step.id} by ${step.role}.`,
        Result: reviewStepOf(policy, step.id),
        ResultPath: REVIEW_STEP,
        Next: part('Schedule'),
      },
    }),
    [part('Schedule')]: build.stage(
      'schedule-review',
      part('Window'),
      { 'reviewStep.$': REVIEW_STEP },
      REVIEW_WINDOW,
    ),
    [part('Window')]: reviewWindowChoice(targets),
    [part('Expired')]: reviewExpired(timedOut),
    // The whole review's time is up: it ends timed_out here, whatever the step's on_timeout says.
    ...(policy.timeout && { [part('ReviewOver')]: reviewExpired(STAGES['mark-timed-out'].task) }),
    [part('Request')]: requestReviewTask(
      build.requestReviewArn,
      stepParameters,
      build.reviewMaxSeconds,
      targets,
    ),
    [part('Apply')]: build.stage(
      'apply-review',
      part('Next'),
      { 'reviewStep.$': REVIEW_STEP, 'review.$': '$.review', routes },
      '$.result',
    ),
    [part('Next')]: { Type: 'Choice', Choices: nextChoices, Default: Outcome.unroutable },
  };
  return states;
};

/** The steps a policy enters other than by escalation: its start, and every decision's or step's next. */
const enteredByDecision = (policy: ReviewPolicy): Set<string> =>
  new Set([
    policy.start,
    ...policy.steps.flatMap((s) =>
      s.type === 'approval' ? s.transitions.map((t) => t.to) : s.type === 'terminal' ? [] : [s.next],
    ),
  ]);

/** A timeout's target: the escalation step's Escalate pass, or the end. */
const entryAfterTimeout = (policy: ReviewPolicy, from: string, to: string): string =>
  policy.steps.find((s) => s.id === to)?.type === 'approval'
    ? name(policy, from, 'Escalate')
    : STAGES['mark-timed-out'].task;

const policyStates = (checked: CheckedPolicy, build: PolicyBuild): Record<string, AslState> => {
  const { policy } = checked;
  const states: Record<string, AslState> = {};
  for (const step of policy.steps) {
    if (step.type === 'approval') {
      Object.assign(states, approvalStates(checked, step, build));
      const target = step.on_timeout ? policy.steps.find((s) => s.id === step.on_timeout) : undefined;
      if (target?.type === 'approval') {
        states[name(policy, step.id, 'Escalate')] = {
          Type: 'Pass',
          Comment: `Nobody decided ${step.id} in time: the review escalates to ${target.id}.`,
          Result: reviewStepOf(policy, target.id, step.id),
          ResultPath: REVIEW_STEP,
          Next: name(policy, target.id, 'Schedule'),
        };
      }
    } else if (step.type === 'wait') {
      states[name(policy, step.id, 'Wait')] = {
        Type: 'Wait',
        Comment: `Policy ${policy.name}: wait ${step.duration}.`,
        Seconds: durationSeconds(step.duration),
        Next: entryOf(policy, step.next),
      };
    } else if (step.type === 'notification') {
      states[name(policy, step.id, 'Notify')] = {
        Type: 'Pass',
        Comment: `Notifies ${step.channel}: the decision's transition put the message in the workflow's outbox.`,
        Result: { channel: step.channel },
        ResultPath: '$.notified',
        Next: entryOf(policy, step.next),
      };
    }
  }
  return states;
};

const anyOf = (variable: string, values: readonly string[]): AslCondition =>
  values.length === 1
    ? { Variable: variable, StringEquals: values[0] as string }
    : { Or: values.map((v) => ({ Variable: variable, StringEquals: v })) };

/** The Choice that picks a document's policy by its tenant and type, most specific first. */
const selectPolicy = (policies: readonly CheckedPolicy[], fallback: string): AslChoiceState => {
  const scoped = policies
    .filter((p) => specificity(p.policy) > 0)
    .sort((a, b) => specificity(b.policy) - specificity(a.policy));
  const choices: AslCompoundChoiceRule[] = scoped.map(({ policy }) => ({
    And: [
      { Variable: ROUTING, IsPresent: true },
      ...(policy.applies_to?.tenants ? [anyOf(`${ROUTING}.tenant`, policy.applies_to.tenants)] : []),
      ...(policy.applies_to?.document_types
        ? [anyOf(`${ROUTING}.type`, policy.applies_to.document_types)]
        : []),
    ],
    Next: name(policy, policy.start, 'Enter'),
  }));
  return {
    Type: 'Choice',
    Comment: 'Picks the review policy by tenant and document type; the most specific applies.',
    Choices: choices,
    Default: fallback,
  };
};

/** The Choice that resumes a review at the step it recorded, when the deployed policy has that version. */
const resumeReview = (policies: readonly CheckedPolicy[], reviewEntry: string): AslChoiceState => ({
  Type: 'Choice',
  Comment: 'Resumes a review at its recorded step; one without a recorded step is selected anew.',
  Choices: policies.flatMap(({ policy }) =>
    policy.steps
      .filter((s) => s.type === 'approval')
      .map((s) => ({
        And: [
          { Variable: REVIEW_STEP, IsPresent: true },
          { Variable: `${REVIEW_STEP}.policy`, StringEquals: policy.name },
          // Another version's step may mean something else: such a review is selected anew.
          { Variable: `${REVIEW_STEP}.version`, NumericEquals: policy.version },
          { Variable: `${REVIEW_STEP}.step`, StringEquals: s.id },
        ],
        Next: name(policy, s.id, 'Schedule'),
      })),
  ),
  Default: reviewEntry,
});

/**
 * The states of the review policies, or undefined when there are none but the built-in default
 * (the definition is then exactly today's). `legacyEntry` is the built-in default's first state.
 */
export const compilePolicies = (
  policies: readonly CheckedPolicy[],
  build: PolicyBuild,
  legacyEntry: string,
): PolicyStates | undefined => {
  const custom = policies.filter((p) => !p.builtIn);
  if (custom.length === 0) return undefined;
  const catchAll = custom.find((p) => specificity(p.policy) === 0);
  const fallback = catchAll ? name(catchAll.policy, catchAll.policy.start, 'Enter') : legacyEntry;
  // A catch-all alone needs no selection (a Choice must have a rule).
  const select = custom.some((p) => specificity(p.policy) > 0) ? selectPolicy(custom, fallback) : undefined;
  const reviewEntry = select ? 'SelectPolicy' : fallback;
  const states: Record<string, AslState> = {
    ...(select && { SelectPolicy: select }),
    ResumeReview: resumeReview(custom, reviewEntry),
  };
  for (const checked of custom) Object.assign(states, policyStates(checked, build));
  return { reviewEntry, resumeEntry: 'ResumeReview', replacesDefault: catchAll !== undefined, states };
};
