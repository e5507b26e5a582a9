import { startStageEnvironment } from './stageEnvironment.js';

/**
 * The stage environment with the ingest handler loaded on it: imported after the environment set
 * the variables its clients read once, as Lambda loads a handler after its environment exists.
 */
export const startIngestEnvironment = async () => {
  const env = await startStageEnvironment();
  const { handler } = await import('../../lambdas/ingest/handler.js');
  return { ...env, handler: handler as unknown };
};
