import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  StandardThreatProtectionMode,
  StringAttribute,
  UserPool,
  type UserPoolClient,
  UserPoolGroup,
} from 'aws-cdk-lib/aws-cognito';
import { AnyPrincipal, Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ROUTES } from '../../lambdas/review-api/routes.js';
import { EnvVar } from '../../lambdas/shared/config.js';
import { ROLES, type Role } from '../../lambdas/shared/principal.js';
import type { DocketConfig } from '../config.js';
import { wildcardResourceFinding } from '../nagFindings.js';
import { type DocumentStorage, Prefix } from './DocumentStorage.js';
import { functionLogs, StageFunction } from './StageFunction.js';
import { executionsArnOf } from './WorkflowStateMachine.js';

/** Cognito groups; their names are the roles the review API checks. */
export const GROUPS: readonly Role[] = ROLES;

/** The roles the review policies' approval steps name. */
const policyRoles = (policies: DocketConfig['reviewPolicies']): string[] =>
  policies.flatMap(({ policy }) => policy.steps.flatMap((s) => (s.type === 'approval' ? [s.role] : [])));

/** Custom attribute holding the tenant; it reaches the API as the `custom:tenant` claim of the ID token. */
export const TENANT_ATTRIBUTE = 'tenant';

/** Settings of the reviewer endpoint. */
export interface ReviewerApiProps {
  readonly storage: DocumentStorage;
  readonly stateMachine: StateMachine;
  readonly config: DocketConfig;
}

/**
 * The reviewer endpoint: a Cognito user pool (groups reviewer, uploader and admin, tenant as a custom
 * attribute, strong passwords, optional TOTP MFA, Plus-tier threat protection), an HTTP API whose
 * every route goes through a JWT authorizer on that pool to the review-api function, stage
 * throttling and JSON access logs.
 */
export class ReviewerApi extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly handler: StageFunction;
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: ReviewerApiProps) {
    super(scope, id);
    const { config } = props;
    const removalPolicy = config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.userPool = new UserPool(this, 'Users', {
      selfSignUpEnabled: false,
      signInAliases: { username: true, email: true },
      autoVerify: { email: true },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      // Reviewers see every document of their tenant: a password alone is not enough.
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Mutable so an admin can move a user; no app client may write it (see writeAttributes).
      customAttributes: { [TENANT_ATTRIBUTE]: new StringAttribute({ minLen: 1, maxLen: 64, mutable: true }) },
      featurePlan: FeaturePlan.PLUS,
      standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: config.retainData,
      removalPolicy,
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason:
        'MFA is optional by design (issue #4): reviewers may enrol TOTP; Plus-tier threat protection covers risky sign-ins.',
    });
    // The built-in roles, then the roles review policies name (an approval step's role is a group).
    for (const groupName of new Set([...GROUPS, ...policyRoles(config.reviewPolicies)])) {
      new UserPoolGroup(this, `Group-${groupName}`, {
        userPool: this.userPool,
        groupName,
        description: `Docket ${groupName}s`,
      });
    }
    this.client = this.userPool.addClient('ReviewClient', {
      // SRP for the console, USER_PASSWORD_AUTH for `aws cognito-idp initiate-auth` (over TLS).
      authFlows: { userSrp: true, userPassword: true },
      // No hosted UI: without this CDK turns on the implicit and code grants with an
      // example.com callback, a sign-in path nobody uses or watches.
      disableOAuth: true,
      generateSecret: false,
      preventUserExistenceErrors: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(1),
      readAttributes: new ClientAttributes()
        .withStandardAttributes({ email: true, emailVerified: true })
        .withCustomAttributes(TENANT_ATTRIBUTE),
      writeAttributes: new ClientAttributes().withStandardAttributes({ email: true }),
    });

    this.handler = new StageFunction(this, 'Handler', {
      name: 'review-api',
      description: 'Docket review API: queue, review, claim, decide; workflows for operators',
      memorySize: 512,
      // API Gateway gives up on an integration after 30 s.
      timeout: Duration.seconds(29),
      ...functionLogs(config),
    });
    props.storage.bindStore(this.handler);
    props.storage.bindDocuments(this.handler, {
      read: [Prefix.incoming, Prefix.artifacts, Prefix.results, Prefix.resultsParquet],
      // POST /uploads presigns PUTs under incoming/: S3 checks them against this role; an erasure
      // rewrites the day's Parquet file without the erased document.
      write: [Prefix.incoming, Prefix.resultsParquet],
      // An admin's erasure (POST /workflows/{id}/erase) deletes the upload, its artifacts and result.
      remove: [Prefix.incoming, Prefix.artifacts, Prefix.results, Prefix.resultsParquet],
    });
    props.storage.bindCacheEraser(this.handler);
    this.handler.addEnvironment(EnvVar.maxPdfBytes, String(config.parse.maxPdfBytes));
    this.handler.addEnvironment(EnvVar.claimTtlSeconds, String(config.claimTtlSeconds));
    this.onlyUploadsThroughTheApi(props.storage);
    this.bindStateMachine(props.stateMachine);

    this.api = new HttpApi(this, 'Api', {
      description: 'Docket reviewer API',
      createDefaultStage: false,
      // API Gateway answers the preflight itself (no OPTIONS route, so no authorizer in its way).
      ...(config.consoleOrigins.length > 0 && {
        corsPreflight: {
          allowOrigins: config.consoleOrigins,
          allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST],
          allowHeaders: ['authorization', 'content-type'],
          maxAge: Duration.hours(1),
        },
      }),
    });
    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: config.logRetentionDays,
      removalPolicy,
    });
    this.stage = new HttpStage(this, 'Stage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: config.api.throttleRate, burstLimit: config.api.throttleBurst },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            user: '$context.authorizer.claims.sub',
            routeKey: '$context.routeKey',
            status: '$context.status',
            latencyMs: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
          }),
        ),
      },
    });

    const authorizer = new HttpUserPoolAuthorizer('Cognito', this.userPool, {
      userPoolClients: [this.client],
      identitySource: ['$request.header.Authorization'],
    });
    const integration = new HttpLambdaIntegration('ReviewApi', this.handler.function);
    // The review API's own route table: the same routes the Lambda serves and the local server matches.
    for (const route of Object.values(ROUTES)) {
      this.api.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration, authorizer });
    }
  }

  /**
   * Writes under `incoming/` start workflows, and the key names the tenant: so the bucket refuses
   * them from any principal but this API's function role, which signs the upload links of
   * POST /uploads (a presigned PUT is made as the role that signed it). An uploader can then
   * only ever write under their own tenant's prefix, and nobody else can write there at all.
   */
  private onlyUploadsThroughTheApi(storage: DocumentStorage): void {
    storage.bucket.addToResourcePolicy(
      new PolicyStatement({
        sid: 'UploadsOnlyThroughTheReviewerApi',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['s3:PutObject'],
        resources: [storage.bucket.arnForObjects(`${Prefix.incoming}*`)],
        conditions: { ArnNotEquals: { 'aws:PrincipalArn': this.handler.role.roleArn } },
      }),
    );
  }

  /** The base URL of the API (the `$default` stage). */
  get url(): string {
    return this.stage.url;
  }

  /**
   * Task responses (decisions, heartbeats on claim) and starting, describing, stopping and
   * redriving executions (retry and cancel for operators), on this state machine and its
   * executions only.
   */
  private bindStateMachine(stateMachine: StateMachine): void {
    const fn = this.handler;
    fn.addEnvironment(EnvVar.stateMachineArn, stateMachine.stateMachineArn);
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        // No SendTaskFailure: a rejection is a decision, sent with SendTaskSuccess.
        actions: ['states:SendTaskSuccess', 'states:SendTaskHeartbeat', 'states:StartExecution'],
        resources: [stateMachine.stateMachineArn],
      }),
    );
    const executions = executionsArnOf(this, stateMachine);
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['states:DescribeExecution', 'states:StopExecution', 'states:RedriveExecution'],
        resources: [executions],
      }),
    );
    Validations.of(fn.role).acknowledge({
      id: wildcardResourceFinding(this, executions),
      reason:
        'Execution names are per document; access is limited to executions of the Docket state machine.',
    });
  }
}
