import type {
  DescribeStateMachineOutput,
  ListStateMachinesInput,
  ListStateMachinesOutput,
} from '@aws-sdk/client-sfn';
import { type AccountScope, isValidResourceName, parseStateMachineArn, stateMachineArn } from './arns.js';
import { StateMachine } from './engine.js';
import {
  InvalidArnError,
  InvalidDefinitionError,
  InvalidNameError,
  StateMachineDoesNotExistError,
} from './errors.js';
import type { RunnableMachine } from './executionHost.js';
import { paginate } from './pagination.js';
import { parsePayload } from './payload.js';
import { prepareDefinition } from './prepareDefinition.js';
import { definitionDigest } from './redrive.js';

/** What a registered state machine is made of. */
export interface StateMachineRegistration {
  name: string;
  /** ASL, as an object or JSON text. */
  definition: object | string;
  /** Shown as the execution role; default `arn:aws:iam::{account}:role/{name}-role`. */
  roleArn?: string;
}

/** A registered machine: what runs it, and what DescribeStateMachine answers. */
export interface RegisteredMachine extends RunnableMachine {
  readonly definitionText: string;
  readonly roleArn: string;
  readonly creationDate: Date;
  /** Digest of `definitionText`: executions record it, and a redrive needs it unchanged. */
  readonly digest: string;
}

/** Definitions (as JSON text) already validated in this process. */
const validDefinitions = new Set<string>();

/**
 * Validates a definition as written (asl-validator: schema, ARNs, JSONPaths) through the engine's
 * constructor. That costs about 300 ms a call, so a definition is validated once per process.
 */
const validateDefinition = (definition: object): void => {
  const text = JSON.stringify(definition);
  if (validDefinitions.has(text)) return;
  try {
    new StateMachine(definition as never);
  } catch (error) {
    throw new InvalidDefinitionError(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  validDefinitions.add(text);
};

/** The state machines of one local Step Functions service, by ARN. */
export class StateMachines {
  private readonly machines = new Map<string, RegisteredMachine>();

  constructor(
    private readonly scope: AccountScope,
    private readonly timeScale: number,
    private readonly now: () => number,
  ) {}

  /**
   * Registers a state machine (or replaces its definition) after validating it as AWS would;
   * returns its ARN. Throws `InvalidDefinitionError` for a definition the engine cannot run.
   */
  register(registration: StateMachineRegistration): string {
    const { name } = registration;
    if (!isValidResourceName(name)) throw new InvalidNameError(name);
    const definition =
      typeof registration.definition === 'string'
        ? (parsePayload(
            registration.definition,
            (d) => new InvalidDefinitionError(`Definition is not JSON: ${d}`),
          ) as object)
        : registration.definition;
    validateDefinition(definition);
    const prepared = prepareDefinition(definition, { timeScale: this.timeScale });
    const arn = stateMachineArn(this.scope, name);
    const definitionText =
      typeof registration.definition === 'string'
        ? registration.definition
        : JSON.stringify(definition, null, 2);
    this.machines.set(arn, {
      arn,
      name,
      prepared,
      engine: new StateMachine(prepared.engineDefinition, { validationOptions: { noValidate: true } }),
      definitionText,
      digest: definitionDigest(definitionText),
      roleArn: registration.roleArn ?? `arn:aws:iam::${this.scope.accountId}:role/${name}-role`,
      creationDate: this.machines.get(arn)?.creationDate ?? new Date(this.now()),
    });
    return arn;
  }

  /**
   * The machine as a redrive runs it: the same states and tasks, entered at `state` (a
   * top-level state) instead of `StartAt`.
   */
  startingAt(machine: RegisteredMachine, state: string): RunnableMachine {
    const definition = { ...machine.prepared.engineDefinition, StartAt: state };
    return { ...machine, engine: new StateMachine(definition, { validationOptions: { noValidate: true } }) };
  }

  /** Whether a machine is registered under `arn`. */
  has(arn: string): boolean {
    return this.machines.has(arn);
  }

  /** The machine under `arn`; `InvalidArn` or `StateMachineDoesNotExist` as AWS answers. */
  get(arn: string | undefined): RegisteredMachine {
    const value = arn ?? '';
    if (!parseStateMachineArn(value)) throw new InvalidArnError(value, 'a state machine ARN');
    const machine = this.machines.get(value);
    if (!machine) throw new StateMachineDoesNotExistError(value);
    return machine;
  }

  /** DescribeStateMachine. */
  describe(arn: string | undefined): DescribeStateMachineOutput {
    const machine = this.get(arn);
    return {
      stateMachineArn: machine.arn,
      name: machine.name,
      status: 'ACTIVE',
      definition: machine.definitionText,
      roleArn: machine.roleArn,
      type: 'STANDARD',
      creationDate: machine.creationDate,
      loggingConfiguration: { level: 'OFF', includeExecutionData: false },
      tracingConfiguration: { enabled: false },
    };
  }

  /** ListStateMachines, by name. */
  list(input: ListStateMachinesInput = {}): ListStateMachinesOutput {
    const all = [...this.machines.values()].sort((a, b) => a.name.localeCompare(b.name));
    const { page, nextToken } = paginate(all, 'stateMachines', input.maxResults, input.nextToken);
    return {
      stateMachines: page.map((m) => ({
        stateMachineArn: m.arn,
        name: m.name,
        type: 'STANDARD',
        creationDate: m.creationDate,
      })),
      ...(nextToken ? { nextToken } : {}),
    };
  }
}
