import { SFNClient } from '@aws-sdk/client-sfn';
import {
  LocalStepFunctions,
  type LocalStepFunctionsOptions,
} from '../../../../local/sfn/localStepFunctions.js';
import { type SfnHttpServer, startSfnHttpServer } from '../../../../local/sfn/sfnHttpServer.js';
import {
  buildDefinition,
  exampleStageArns,
  type WorkflowPolicyInput,
} from '../../../../statemachine/index.js';
import { StageStandIns } from './stageStandIns.js';

/** Test credentials for the local endpoint: never real ones. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Waits and backoffs run 1000 times faster (a 10 s backoff takes 10 ms). */
export const TEST_TIME_SCALE = 0.001;

/** The Docket definition's stage ARNs, as the local runtime registers them. */
export const STAGE_ARNS = exampleStageArns('us-east-1', '123456789012', 'docket');

/**
 * The local Step Functions served on a free port with an SDK client pointed at it, nothing
 * registered yet (tests register the definition they run and its functions).
 */
export const openSfnEndpoint = async (options: Pick<LocalStepFunctionsOptions, 'dataDir' | 'clock'> = {}) => {
  const service = await LocalStepFunctions.open({
    timeScale: TEST_TIME_SCALE,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const server: SfnHttpServer = await startSfnHttpServer(service);
  const client = new SFNClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
  });
  return {
    service,
    server,
    client,
    close: async () => {
      client.destroy();
      await server.close();
      await service.close();
    },
  };
};

/**
 * The local Step Functions running the real `buildDefinition()` output with in-process stage
 * stand-ins, served on a free port, and an SDK client pointed at it.
 */
export const startSfnFixture = async (
  options: { policy?: WorkflowPolicyInput } & Pick<LocalStepFunctionsOptions, 'dataDir' | 'clock'> = {},
) => {
  const endpoint = await openSfnEndpoint(options);
  const stateMachineArn = endpoint.service.registerStateMachine({
    name: 'docket',
    definition: buildDefinition(STAGE_ARNS, options.policy ?? {}),
  });
  const stages = new StageStandIns();
  stages.register(endpoint.service, STAGE_ARNS);
  return { ...endpoint, stages, stateMachineArn };
};

/** Names of the states an execution entered, in order. */
export const enteredStates = (events: { stateEnteredEventDetails?: { name?: string } }[]): string[] =>
  events.flatMap((e) => (e.stateEnteredEventDetails?.name ? [e.stateEnteredEventDetails.name] : []));
