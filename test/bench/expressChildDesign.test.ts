import aslValidator from 'asl-validator';
import { describe, expect, it } from 'vitest';
import { worstCase } from '../../bench/support/costResult.js';
import { definitionPath } from '../../bench/support/definitionPath.js';
import {
  buildExpressChildDesign,
  EXPRESS_MAX_SECONDS,
  START_EXECUTION_SYNC,
} from '../../bench/support/expressChildDesign.js';
import {
  childWorstCaseSeconds,
  hasCallbackTask,
  statesOfType,
  taskWorstCaseSeconds,
} from '../../bench/support/expressChildLimits.js';
import { buildDefinition, exampleStageArns } from '../../statemachine/index.js';

const design = buildExpressChildDesign(exampleStageArns());
const AUTO = { Ingest: { '$.duplicate': false }, Validate: { '$.result.state': 'validated' } };

describe('the nested Express design (npm run cost)', () => {
  it('builds a parent and a child that asl-validator accepts', () => {
    // Act
    const results = [design.parent, design.child].map((d) => aslValidator(d as never));

    // Assess
    for (const { isValid, errorsText } of results) {
      expect(errorsText('\n')).toBe('');
      expect(isValid).toBe(true);
    }
  });

  it('keeps every wait out of the child: no task token, no Wait state, no in-place Retry', () => {
    // Act
    const childTasks = statesOfType(design.child, 'Task').map((name) => design.child.States[name]);

    // Assess
    expect(hasCallbackTask(design.child)).toBe(false);
    expect(statesOfType(design.child, 'Wait')).toEqual([]);
    expect(childTasks.every((t) => t?.Type === 'Task' && t.Retry === undefined)).toBe(true);
    expect(hasCallbackTask(design.parent)).toBe(true);
    expect(statesOfType(design.parent, 'Wait').sort()).toEqual(['BackoffWait', 'OcrWait']);
  });

  it('bills the auto path 3 Standard transitions instead of 10, the review path 9 instead of 15', () => {
    // Prepare
    const today = buildDefinition(exampleStageArns());

    // Act
    const parentAuto = definitionPath(design.parent, {}, { Automatic: { '$.next': 'Completed' } });
    const parentReview = definitionPath(
      design.parent,
      {},
      { Automatic: { '$.next': 'ScheduleReview' }, ApplyReview: { '$.result.state': 'validated' } },
    );
    const child = definitionPath(design.child, {}, AUTO);

    // Assess
    expect(parentAuto.states).toEqual(['Automatic', 'AfterAutomatic', 'Completed']);
    expect(parentReview.states).toHaveLength(9);
    expect(definitionPath(today, {}, AUTO).states).toHaveLength(10);
    expect(child.tasks).toEqual(['Ingest', 'Parse', 'Extract', 'Validate', 'Compare']);
    expect(child.end).toBe('ToCompleted');
  });

  it("starts the child with .sync:2 and lets Ingest record the parent's execution, not the child's", () => {
    // Act
    const automatic = design.parent.States.Automatic;
    const ingest = design.child.States.Ingest;

    // Assess
    expect(automatic?.Type === 'Task' && automatic.Resource).toBe(START_EXECUTION_SYNC);
    expect(automatic?.Type === 'Task' && automatic.Parameters?.Input).toMatchObject({
      'AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID.$': '$$.Execution.Id',
    });
    expect(ingest?.Type === 'Task' && ingest.Parameters).toMatchObject({
      'executionArn.$': '$.AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID',
    });
  });

  it('hands every child exit to a state the parent has and routes', () => {
    // Prepare
    const after = design.parent.States.AfterAutomatic;
    const routed =
      after?.Type === 'Choice'
        ? after.Choices.map((c) => ('StringEquals' in c ? c.StringEquals : undefined))
        : [];

    // Act
    const exits = Object.values(design.child.States).flatMap((s) =>
      s.Type === 'Pass' && s.End ? [String(s.Result)] : [],
    );

    // Assess
    expect(exits.length).toBe(8);
    for (const next of exits) {
      expect(routed).toContain(next);
      expect(design.parent.States[next]).toBeDefined();
    }
  });
});

describe('the worst case of the automatic segment', () => {
  it('adds every attempt a retrier allows and its capped delay', () => {
    // Act
    const seconds = taskWorstCaseSeconds({
      TimeoutSeconds: 10,
      Retry: [{ ErrorEquals: ['X'], IntervalSeconds: 1, MaxAttempts: 3, BackoffRate: 2, MaxDelaySeconds: 3 }],
    });

    // Assess: 10, then 10 + 1, 10 + 2, 10 + 3 (4 capped to 3).
    expect(seconds).toBe(46);
  });

  it('fits 5 minutes in the modelled child, not with the Task settings the segment has today', () => {
    // Act
    const bounded = childWorstCaseSeconds(design.child);
    const tooSlow = childWorstCaseSeconds(
      buildExpressChildDesign(exampleStageArns(), {}, { childTaskTimeoutSeconds: 61 }).child,
    );
    const figures = worstCase();

    // Assess: five Tasks of 55 s on the longest path (Ingest to Compare).
    expect(bounded).toBe(275);
    expect(tooSlow).toBeGreaterThan(EXPRESS_MAX_SECONDS);
    expect(figures.boundedChild.fits).toBe(true);
    expect(figures.todaysSettings.fits).toBe(false);
    expect(figures.todaysSettings.perTask.parse).toBeGreaterThan(5 * 330);
  });
});
