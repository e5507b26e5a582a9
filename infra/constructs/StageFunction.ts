import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { ApplicationLogLevel, Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '../../lambdas/shared/observability.js';
import type { DocketConfig } from '../config.js';

/** The repository root: entries, tsconfig and the lock file are resolved from it. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where a function's handler lives: `lambdas/<name>/handler.ts`, exporting `handler`. */
export const handlerEntry = (name: string): string => `${PROJECT_ROOT}lambdas/${name}/handler.ts`;

/**
 * Defines `require` for the ESM bundle: some dependencies (the AWS SDK's CommonJS corners,
 * pdf.js fallbacks) call `require` for Node built-ins, which an ESM module does not have.
 */
export const CREATE_REQUIRE_BANNER =
  "import { createRequire as __docketCreateRequire } from 'node:module'; " +
  'const require = __docketCreateRequire(import.meta.url);';

/**
 * How every Docket function is bundled: one minified ESM file (`index.mjs`) with a source map,
 * every dependency inlined (the AWS SDK too: the deployed code is the code tested locally, not the
 * runtime's SDK version), by the esbuild in node_modules. Never Docker.
 */
export const DEFAULT_BUNDLING: BundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node22',
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  // Letters written as themselves, not as "\u0394" escapes: the Greek and Cyrillic vocabularies
  // weigh half as much (the extract bundle 1,340 KB -> 1,261 KB), and Node reads modules as UTF-8.
  // As an argument: aws-cdk-lib 2.276's bundler declares `charset` but never passes it to esbuild.
  esbuildArgs: { '--charset': 'utf8' },
  externalModules: [],
  banner: CREATE_REQUIRE_BANNER,
  forceDockerBundling: false,
};

let esbuildChecked = false;
/**
 * aws-lambda-nodejs silently builds a Docker image when it cannot find esbuild; Docket never
 * bundles in Docker, so a missing esbuild is an error here.
 */
const assertLocalEsbuild = () => {
  if (esbuildChecked) return;
  try {
    createRequire(import.meta.url).resolve('esbuild');
    esbuildChecked = true;
  } catch (cause) {
    throw new Error(
      'esbuild is not installed in node_modules; Docket bundles its functions with the local esbuild ' +
        'and never with Docker. Run `npm ci` at the repository root.',
      { cause },
    );
  }
};

/** Settings of one Docket function. */
export interface StageFunctionProps {
  /** Folder under lambdas/ and the Powertools service name. */
  readonly name: string;
  readonly description: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  readonly logRetention: RetentionDays;
  /** Of the log group: kept with the data, or destroyed with a throwaway stack. */
  readonly logRemovalPolicy: RemovalPolicy;
  readonly reservedConcurrency?: number;
  readonly environment?: Record<string, string>;
  /** Merged over `DEFAULT_BUNDLING` (e.g. `nodeModules`, `commandHooks`, a different banner). */
  readonly bundling?: Partial<BundlingOptions>;
}

/**
 * The log settings every function of a deployment shares: its level, its retention, and a log
 * group kept with the data (`retainData`) or destroyed with a throwaway stack.
 */
export const functionLogs = (
  config: Pick<DocketConfig, 'logLevel' | 'logRetentionDays' | 'retainData'>,
): Pick<StageFunctionProps, 'logLevel' | 'logRetention' | 'logRemovalPolicy'> => ({
  logLevel: config.logLevel,
  logRetention: config.logRetentionDays,
  logRemovalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
});

/**
 * One Lambda function of Docket: `nodejs22.x` on ARM64, bundled by the local esbuild, X-Ray
 * active tracing, Powertools environment, its own log group with retention and its own role
 * that starts with nothing but writing to that log group. Access is granted by the constructs
 * that own the resources (DocumentStorage, WorkflowStateMachine).
 */
export class StageFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: StageFunctionProps) {
    super(scope, id);
    assertLocalEsbuild();
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    // Not the default role: it carries the AWSLambdaBasicExecutionRole managed policy, which may
    // write to any log group. This one may write to its own.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Docket ${props.name} function`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: handlerEntry(props.name),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: `${PROJECT_ROOT}package-lock.json`,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      description: props.description,
      memorySize: props.memorySize,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      // Same level as Powertools: with JSON logging, Lambda would otherwise filter at INFO.
      applicationLogLevelV2: ApplicationLogLevel[props.logLevel],
      tracing: Tracing.ACTIVE,
      ...(props.reservedConcurrency !== undefined && {
        reservedConcurrentExecutions: props.reservedConcurrency,
      }),
      environment: {
        POWERTOOLS_SERVICE_NAME: props.name,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_LOG_LEVEL: props.logLevel,
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      bundling: { ...DEFAULT_BUNDLING, ...props.bundling },
    });

    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'nodejs22.x on purpose (LTS, supported by Lambda into 2027); a runtime bump is made and tested deliberately.',
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray PutTraceSegments/PutTelemetryRecords (active tracing) have no resource-level permissions.',
    });
  }

  /** Adds environment variables; the constructs that grant access call it with their resource names. */
  addEnvironment(name: string, value: string): void {
    this.function.addEnvironment(name, value);
  }

  /**
   * Lets the function send to `queue` (and nothing else on it), and tells it the queue's URL in
   * `envVar`: the grant and the name it is used under, in one call, so neither is forgotten.
   */
  bindQueueSender(queue: IQueue, envVar: string): void {
    this.addEnvironment(envVar, queue.queueUrl);
    queue.grantSendMessages(this.role);
  }
}
