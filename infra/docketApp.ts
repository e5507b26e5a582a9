import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { type DocketConfig, loadConfig } from './config.js';
import { DocketStack, type DocketStackProps } from './DocketStack.js';

/** The app, its one stack and the configuration it was built with. */
export interface DocketApp {
  app: App;
  stack: DocketStack;
  config: DocketConfig;
}

/**
 * Builds the Docket app: configuration from context (validated), the stack, and cdk-nag's
 * AwsSolutions pack as a validation plugin, so synth fails on any unacknowledged finding. Used by
 * infra/app.ts and by the tests, which pass their own context and output directory.
 */
export const createDocketApp = (
  props: AppProps = {},
  options: { env?: Record<string, string | undefined>; bundling?: DocketStackProps['bundling'] } = {},
): DocketApp => {
  const app = new App(props);
  const config = loadConfig(
    (key) => app.node.tryGetContext(key),
    options.env ?? process.env,
    Object.keys(app.node.getAllContext()),
  );
  const stack = new DocketStack(app, config.stackName, {
    config,
    description: 'Docket: PDFs in S3 become validated, reviewed, compared records',
    ...((config.env.account || config.env.region) && { env: config.env }),
    ...(options.bundling && { bundling: options.bundling }),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack, config };
};
