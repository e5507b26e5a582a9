import type { HistoryEventType } from '@aws-sdk/client-sfn';
import type { StateMachine } from './engine.js';
import type { EventBody } from './history.js';

type EngineRun = ReturnType<StateMachine['run']>;

/** One event of the engine's event log. */
export type EngineEvent = EngineRun['eventLogs'] extends AsyncGenerator<infer E> ? E : never;

/** A history event derived from an engine event; `closes` marks the execution's last one. */
export interface DerivedEvent {
  readonly body: EventBody;
  readonly closes: boolean;
}

/** JSON text of a state's data, as history events carry it. */
export const json = (value: unknown): string => JSON.stringify(value ?? null);

const causeText = (cause: unknown): string => {
  if (typeof cause === 'string') return cause;
  if (cause instanceof Error) return cause.message;
  return json(cause);
};

/** What the history needs to know about the machine's states. */
export interface MachineStates {
  /** Each state's type as written, since the engine sees Wait states as Tasks. */
  readonly stateTypes: ReadonlyMap<string, string>;
  /** States whose events the parent's history does not show (inside a Distributed Map). */
  readonly hiddenStates: ReadonlySet<string>;
  /** Distributed Map states: their entry and exit frame a map run. */
  readonly distributedMaps: ReadonlyMap<string, string>;
}

/**
 * The AWS history events for an engine event. The map-run events of a Distributed Map frame its
 * entry and exit (`mapRunArn` names the run; its items' own events stay out, as on AWS, where they
 * are child executions); every other event maps to at most one, see `singleEvent`.
 */
export const historyFromEngine = (
  event: EngineEvent,
  machine: MachineStates,
  mapRunArn: (mapState: string) => string,
): DerivedEvent[] => {
  if ('state' in event && machine.hiddenStates.has(event.state.name)) return [];
  if ('parentState' in event && machine.distributedMaps.has(event.parentState.name)) return [];
  const single = singleEvent(event, machine.stateTypes);
  const isRun = 'state' in event && machine.distributedMaps.has(event.state.name);
  if (!isRun) return single ? [single] : [];
  const name = event.state.name;
  const step = (body: EventBody): DerivedEvent => ({ closes: false, body });
  switch (event.type) {
    case 'StateEntered':
      return [
        ...(single ? [single] : []),
        step({ type: 'MapRunStarted', mapRunStartedEventDetails: { mapRunArn: mapRunArn(name) } }),
      ];
    case 'StateExited':
      return [step({ type: 'MapRunSucceeded' }), ...(single ? [single] : [])];
    case 'StateFailed':
      return [
        step({
          type: 'MapRunFailed',
          mapRunFailedEventDetails: { error: event.Error, cause: causeText(event.Cause) },
        }),
      ];
    default:
      return single ? [single] : [];
  }
};

/**
 * The AWS history event for an engine event, or undefined when the engine event has no
 * counterpart of its own: ExecutionStarted and ExecutionAborted are recorded by the service when
 * they happen, and a Task records its Lambda and Task events itself, knowing more than the engine
 * (StateFailed, StateRetried and StateCaught add nothing to those).
 */
const singleEvent = (
  event: EngineEvent,
  stateTypes: ReadonlyMap<string, string>,
): DerivedEvent | undefined => {
  const typeOf = (name: string): string => stateTypes.get(name) ?? 'Pass';
  switch (event.type) {
    case 'StateEntered':
      return {
        closes: false,
        body: {
          type: `${typeOf(event.state.name)}StateEntered` as HistoryEventType,
          stateEnteredEventDetails: {
            name: event.state.name,
            input: json(event.state.input),
            inputDetails: { truncated: false },
          },
        },
      };
    case 'StateExited':
      // A Fail state never exits: the execution fails in it.
      if (typeOf(event.state.name) === 'Fail') return undefined;
      return {
        closes: false,
        body: {
          type: `${typeOf(event.state.name)}StateExited` as HistoryEventType,
          stateExitedEventDetails: {
            name: event.state.name,
            output: json(event.state.output),
            outputDetails: { truncated: false },
          },
        },
      };
    case 'MapIterationStarted':
    case 'MapIterationSucceeded':
    case 'MapIterationFailed': {
      const key = `${event.type[0]?.toLowerCase()}${event.type.slice(1)}EventDetails`;
      return {
        closes: false,
        body: { type: event.type, [key]: { name: event.parentState.name, index: event.index } },
      };
    }
    case 'ExecutionSucceeded':
      return {
        closes: true,
        body: {
          type: 'ExecutionSucceeded',
          executionSucceededEventDetails: { output: json(event.output), outputDetails: { truncated: false } },
        },
      };
    case 'ExecutionFailed':
      return {
        closes: true,
        body: {
          type: 'ExecutionFailed',
          executionFailedEventDetails: { error: event.Error, cause: causeText(event.Cause) },
        },
      };
    case 'ExecutionTimeout':
      return {
        closes: true,
        body: {
          type: 'ExecutionTimedOut',
          executionTimedOutEventDetails: {
            error: 'States.Timeout',
            cause: 'The execution ran longer than the TimeoutSeconds of its state machine.',
          },
        },
      };
    default:
      return undefined;
  }
};
