import { InvalidDefinitionError } from './errors.js';

/*
 * A Distributed Map (`ItemProcessor.ProcessorConfig.Mode: DISTRIBUTED`) over an item list, as the
 * local engine runs it. On AWS each item runs as a child execution of a map run and the parent's
 * history shows only the run (MapRunStarted, then MapRunSucceeded or MapRunFailed); with no failure
 * tolerance, one failed child fails the Map state with `States.ExceedToleratedFailureThreshold`.
 * Here the items run inside the execution with the engine's inline Map (MaxConcurrency and
 * ItemSelector as written), their states are kept out of the parent's history, and the item
 * processor is wrapped so that a failed item fails the Map with AWS's error:
 *
 *   {name} (map run item): Parallel[original processor], Catch States.ALL -> {name} (map run failed)
 *   {name} (map run failed): Fail, States.ExceedToleratedFailureThreshold
 *
 * Local differences, said where they matter: child executions are not listed (ListExecutions
 * --map-run-arn finds none), and what AWS reads or writes through S3 (ItemReader, ResultWriter)
 * or batches (ItemBatcher) is refused rather than faked, as is a failure tolerance.
 */

type Json = Record<string, unknown>;

/** The error AWS fails a Distributed Map with when more items failed than it tolerates. */
export const EXCEEDED_TOLERANCE = 'States.ExceedToleratedFailureThreshold';

const REFUSED_FIELDS = ['ItemReader', 'ResultWriter', 'ItemBatcher'] as const;
const TOLERANCE_FIELDS = [
  'ToleratedFailurePercentage',
  'ToleratedFailureCount',
  'ToleratedFailurePercentagePath',
  'ToleratedFailureCountPath',
] as const;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a Map state runs its items as a Distributed Map. */
export const isDistributedMap = (state: Json): boolean =>
  isObject(state.ItemProcessor) &&
  isObject(state.ItemProcessor.ProcessorConfig) &&
  state.ItemProcessor.ProcessorConfig.Mode === 'DISTRIBUTED';

/** Throws `InvalidDefinitionError` for a Distributed Map field the local engine does not run. */
export const refuseUnsupported = (name: string, state: Json): void => {
  const refused = REFUSED_FIELDS.filter((field) => field in state);
  if (refused.length > 0) {
    throw new InvalidDefinitionError(
      `Distributed Map "${name}" uses ${refused.join(', ')}, which the local engine does not run: ` +
        'pass the items in the input (ItemsPath) and take the results from the Map state output.',
    );
  }
  const tolerant = TOLERANCE_FIELDS.filter((field) => field in state && state[field] !== 0);
  if (tolerant.length > 0) {
    throw new InvalidDefinitionError(
      `Distributed Map "${name}" sets ${tolerant.join(', ')}; the local engine fails the map on the ` +
        "first failed item (AWS's default). Catch errors in the item processor to tolerate them.",
    );
  }
};

/** Names of the two states that wrap a Distributed Map's item processor. */
export const wrapperNames = (name: string) => ({
  item: `${name} (map run item)`,
  failed: `${name} (map run failed)`,
});

/**
 * The item processor the engine runs for Distributed Map `name`: the prepared processor as the one
 * branch of a Parallel whose failure becomes the map run's.
 */
export const wrapItemProcessor = (name: string, processor: Json): Json => {
  const { ProcessorConfig: _, ...machine } = processor;
  const names = wrapperNames(name);
  return {
    StartAt: names.item,
    States: {
      [names.item]: {
        Type: 'Parallel',
        Branches: [machine],
        OutputPath: '$[0]',
        Catch: [{ ErrorEquals: ['States.ALL'], Next: names.failed }],
        End: true,
      },
      [names.failed]: {
        Type: 'Fail',
        Error: EXCEEDED_TOLERANCE,
        Cause: `An item of the Distributed Map "${name}" failed, and the map tolerates no failed items.`,
      },
    },
  };
};

/** A map run's ARN, as AWS names it: `mapRun:{stateMachine}/{label}:{id}`. */
export const mapRunArn = (stateMachineArn: string, label: string, id: string): string =>
  `${stateMachineArn.replace(':stateMachine:', ':mapRun:')}/${label}:${id}`;
