/**
 * The local Step Functions: aws-local-stepfunctions wrapped into an AWS-compatible service
 * (`LocalStepFunctions`) and served as an AWS JSON 1.0 endpoint (`startSfnHttpServer`).
 */
export { type AccountScope, executionArn, functionArn, stateMachineArn } from './arns.js';
export * from './errors.js';
export { HISTORY_FILE } from './historyFile.js';
export { type FunctionOptions, type LambdaHandler, lambdaContext } from './lambdaFunctions.js';
export {
  type ExecutionStatusChange,
  LocalStepFunctions,
  type LocalStepFunctionsOptions,
  RESTART_ERROR,
  type StateMachineRegistration,
} from './localStepFunctions.js';
export { type SfnHttpServer, startSfnHttpServer } from './sfnHttpServer.js';
export { type Clock, systemClock } from './timers.js';
