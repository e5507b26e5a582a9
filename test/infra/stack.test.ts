import aslValidator from 'asl-validator';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_TABLE_ACTIONS, PROVIDER_TABLE_ACTIONS } from '../../infra/constructs/DocumentStorage.js';
import { GROUPS } from '../../infra/constructs/ReviewerApi.js';
import { bedrockResources } from '../../infra/constructs/WorkflowFunctions.js';
import { StackOutput } from '../../infra/outputs.js';
import { ROUTES, routeKey } from '../../lambdas/review-api/routes.js';
import { EnvVar } from '../../lambdas/shared/config.js';
import { TABLES } from '../../lambdas/shared/store/index.js';
import {
  buildDefinition,
  exampleStageArns,
  STAGES,
  type Stage,
  WAIT_FOR_TASK_TOKEN,
} from '../../statemachine/index.js';
import { nagViolations, type SynthResult, synthDocket } from './support/synthDocket.js';
import {
  asArray,
  deployedDefinition,
  functionsByService,
  getAttTarget,
  logicalId,
  resources,
  roleStatements,
  type Statement,
  single,
  statements,
  workflowMachine,
} from './support/templateQueries.js';

// Two synths for the whole file: the defaults of cdk.json, and a variant whose context is given
// as `-c` strings (review timeout, Bedrock extractor, reserved concurrency, alarm e-mail, console
// origin). They are why the file stays whole past ~300 lines: each synth takes 5-7 s of a core
// here, and one file per describe would synthesize twice per file; its describes are its parts.
let defaults: SynthResult;
let variant: SynthResult;
const VARIANT_CONTEXT = {
  reviewTimeout: '3600',
  extractor: 'bedrock',
  bedrockModelId: 'eu.anthropic.claude-3-5-haiku-20241022-v1:0',
  parseReservedConcurrency: '5',
  alarmEmail: 'ops@example.com',
  retainData: 'false',
  consoleOrigins: 'https://review.example.com',
  claimTtl: '600',
};

beforeAll(async () => {
  defaults = synthDocket();
  // Each synth blocks this worker; between them it answers vitest (whose RPC times out at 60 s).
  await new Promise((resolve) => setImmediate(resolve));
  variant = synthDocket({ context: VARIANT_CONTEXT });
}, 120_000);
afterAll(() => {
  defaults?.remove();
  variant?.remove();
});

describe('cdk-nag', () => {
  it('synthesizes with no unacknowledged AwsSolutions finding', () => {
    // Prepare: synth already ran with the AwsSolutions pack as a validation plugin (it throws on a finding).
    // Act
    const violations = nagViolations(defaults.outdir);
    // Assess
    expect(violations).toEqual([]);
  });

  it('gives every acknowledgement a one-line reason', () => {
    // Prepare
    const acknowledged = defaults.stack.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
      .flatMap((m) => Object.entries(m.data as Record<string, string>));
    // Assess
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const [id, reason] of acknowledged) {
      expect(id).toMatch(/AwsSolutions-/);
      expect(reason.length, id).toBeGreaterThan(20);
      expect(reason, id).not.toContain('\n');
    }
  });
});

describe('storage', () => {
  it('locks the documents bucket down: no public access, SSE, versioning, access logs, EventBridge', () => {
    // Prepare: the synthesized templates (beforeAll); Act and Assess below.
    defaults.template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      VersioningConfiguration: { Status: 'Enabled' },
      NotificationConfiguration: { EventBridgeConfiguration: { EventBridgeEnabled: true } },
      LoggingConfiguration: {
        DestinationBucketName: { Ref: logicalId(defaults, defaults.stack.storage.accessLogs) },
      },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ Prefix: 'artifacts/', ExpirationInDays: 365, Status: 'Enabled' }),
        ]),
      },
    });
  });

  it('denies every request without TLS on all three buckets (documents, access logs, ledger snapshots)', () => {
    // Prepare: the synthesized templates (beforeAll); Act and Assess below.
    const policies = resources(defaults, 'AWS::S3::BucketPolicy');
    expect(Object.keys(policies)).toHaveLength(3);
    for (const policy of Object.values(policies)) {
      expect(policy.Properties.PolicyDocument).toMatchObject({
        Statement: expect.arrayContaining([
          expect.objectContaining({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      });
    }
  });

  it('builds each table from its shared spec: keys, indexes, on-demand, PITR, encryption', () => {
    // Prepare
    const tables = [
      defaults.stack.storage.workflows,
      defaults.stack.storage.transitions,
      defaults.stack.storage.providers,
    ];
    for (const [i, spec] of TABLES.entries()) {
      const table = resources(defaults, 'AWS::DynamoDB::GlobalTable')[
        logicalId(defaults, tables[i] as never)
      ];
      const keySchema = [
        { AttributeName: spec.partitionKey.name, KeyType: 'HASH' },
        ...(spec.sortKey ? [{ AttributeName: spec.sortKey.name, KeyType: 'RANGE' }] : []),
      ];
      // Assess
      expect(table?.Properties).toMatchObject({
        KeySchema: keySchema,
        BillingMode: 'PAY_PER_REQUEST',
        SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
        Replicas: [
          expect.objectContaining({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
        ],
      });
      const indexes = (table?.Properties.GlobalSecondaryIndexes as { IndexName: string }[] | undefined) ?? [];
      expect(indexes.map((x) => x.IndexName)).toEqual(spec.indexes.map((x) => x.indexName));
    }
  });

  it('lets no role update, delete or batch-write the transition log (append-only by IAM)', () => {
    // Prepare
    const log = logicalId(defaults, defaults.stack.storage.transitions);
    const all = statements(defaults).filter((s) => s.Effect === 'Allow');
    // Act: the table's own statements; its stream's (read by the ledger witness) are apart.
    const onStream = (s: Statement) => JSON.stringify(s.Resource).includes('StreamArn');
    const onLog = all.filter((s) => JSON.stringify(s.Resource).includes(`"${log}"`) && !onStream(s));
    const streamReads = all.filter((s) => JSON.stringify(s.Resource).includes(`"${log}"`) && onStream(s));
    const onEverything = all.filter((s) => asArray(s.Resource).includes('*'));
    // Assess
    expect(onLog.length).toBeGreaterThan(0);
    for (const s of streamReads)
      expect(
        asArray(s.Action).every((a) =>
          /^dynamodb:(DescribeStream|GetRecords|GetShardIterator|ListStreams)$/.test(a),
        ),
      ).toBe(true);
    for (const s of onLog) {
      expect(
        asArray(s.Action).every((a) => (LOG_TABLE_ACTIONS as readonly string[]).includes(a)),
        String(s.Action),
      ).toBe(true);
      expect(asArray(s.Action)).not.toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^dynamodb:(UpdateItem|DeleteItem|BatchWriteItem|\*)$/),
        ]),
      );
    }
    for (const s of onEverything)
      expect(asArray(s.Action).filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
  });

  it('lets only validate read the providers, and only by Scan and GetItem (the calls providersStore makes)', () => {
    // Prepare
    const providers = logicalId(defaults, defaults.stack.storage.providers);
    const validateRole = getAttTarget(functionsByService(defaults).validate?.Properties.Role);
    // Act
    const onProviders = Object.values(resources(defaults, 'AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.PolicyDocument).includes(`"${providers}"`),
    );
    const actions = onProviders
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
      .filter((st) => JSON.stringify(st.Resource).includes(`"${providers}"`))
      .flatMap((st) => asArray(st.Action));
    // Assess
    expect(PROVIDER_TABLE_ACTIONS).toEqual(['dynamodb:Scan', 'dynamodb:GetItem']);
    expect(onProviders.map((p) => p.Properties.Roles)).toEqual([[{ Ref: validateRole }]]);
    expect(actions.sort()).toEqual(['dynamodb:GetItem', 'dynamodb:Scan']);
  });
});

describe('functions', () => {
  it('runs every function on nodejs22.x ARM64 with tracing, Powertools env, source maps and log retention', () => {
    // Prepare
    const functions = resources(defaults, 'AWS::Lambda::Function');
    const logGroups = resources(defaults, 'AWS::Logs::LogGroup');
    // Assess: the stages, the review API, review-metrics, the starter, slot-release, the
    // ledger's snapshot and witness, the outbox deliverer and the results compactor.
    expect(Object.keys(functions)).toHaveLength(Object.keys(STAGES).length + 9);
    for (const fn of Object.values(functions)) {
      const p = fn.Properties as {
        Environment: { Variables: Record<string, string> };
        LoggingConfig: { LogGroup: { Ref: string } };
      };
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        Handler: 'index.handler',
      });
      expect(p.Environment.Variables).toMatchObject({
        POWERTOOLS_METRICS_NAMESPACE: 'Docket',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        NODE_OPTIONS: '--enable-source-maps',
      });
      expect(logGroups[p.LoggingConfig.LogGroup.Ref]?.Properties.RetentionInDays).toBe(30);
    }
  });

  it('binds one function per stage with its table and bucket variables', () => {
    // Prepare: the synthesized templates (beforeAll); Act and Assess below.
    const byService = functionsByService(defaults);
    for (const stage of Object.keys(STAGES)) {
      expect(byService[stage]?.Properties.Environment, stage).toMatchObject({
        Variables: {
          [EnvVar.workflowsTable]: expect.anything(),
          [EnvVar.transitionsTable]: expect.anything(),
        },
      });
    }
    expect(byService.parse?.Properties.Environment).toMatchObject({
      Variables: { [EnvVar.bucket]: expect.anything(), [EnvVar.maxPdfPages]: '500' },
    });
    expect(byService['review-api']?.Properties.Environment).toMatchObject({
      Variables: { [EnvVar.stateMachineArn]: expect.anything(), [EnvVar.claimTtlSeconds]: '900' },
    });
    // The claim length comes from context (`-c claimTtl=600`) to the one function that claims.
    expect(functionsByService(variant)['review-api']?.Properties.Environment).toMatchObject({
      Variables: { [EnvVar.claimTtlSeconds]: '600' },
    });
    // Ingest skips hashing what parse will refuse, so it must know the same size limit.
    expect(byService.ingest?.Properties.Environment).toMatchObject({
      Variables: { [EnvVar.maxPdfBytes]: String(25 * 1024 * 1024) },
    });
  });

  it('grants Bedrock only when the Bedrock extractor is chosen, and only to extract', () => {
    // Prepare
    const bedrockIn = (s: SynthResult) =>
      statements(s).filter((st) => asArray(st.Action).some((a) => a.startsWith('bedrock:')));
    const extractRole = getAttTarget(functionsByService(variant).extract?.Properties.Role);
    // Assess
    expect(bedrockIn(defaults)).toEqual([]);
    expect(bedrockIn(variant)).toHaveLength(1);
    expect(roleStatements(variant, extractRole)).toContainEqual(
      expect.objectContaining({ Action: 'bedrock:InvokeModel' }),
    );
    expect(functionsByService(variant).extract?.Properties.Environment).toMatchObject({
      Variables: { [EnvVar.extractor]: 'bedrock', [EnvVar.bedrockModelId]: VARIANT_CONTEXT.bedrockModelId },
    });
  });

  it('grants a geographic inference profile with its model in every region, a plain model id as is', () => {
    // Prepare
    const stack = new Stack(new App(), 'Bedrock', {
      env: { account: '111111111111', region: 'ap-northeast-1' },
    });
    const arn = (rest: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, rest]] });
    const model = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
    // Act
    const granted = (modelId: string) => stack.resolve(bedrockResources(stack, modelId));
    // Assess: any `<geo>.` prefix is a profile (jp., us-gov.); a provider's dot is not.
    for (const geo of ['jp', 'au', 'us-gov', 'global']) {
      expect(granted(`${geo}.${model}`), geo).toEqual([
        arn(`:bedrock:ap-northeast-1:111111111111:inference-profile/${geo}.${model}`),
        arn(`:bedrock:*::foundation-model/${model}`),
      ]);
    }
    expect(granted(model)).toEqual([arn(`:bedrock:ap-northeast-1::foundation-model/${model}`)]);
  });

  it('reserves concurrency for parse only when configured', () => {
    // Prepare: the synthesized templates (beforeAll); Act and Assess below.
    expect(functionsByService(defaults).parse?.Properties.ReservedConcurrentExecutions).toBeUndefined();
    expect(functionsByService(variant).parse?.Properties.ReservedConcurrentExecutions).toBe(5);
  });
});

describe('state machine', () => {
  it('is Standard, logs ALL events without execution data (task tokens stay out) and traces', () => {
    // Prepare: the synthesized templates (beforeAll); Act and Assess below.
    defaults.template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineType: 'STANDARD',
      // Never the execution data: it would put the review task token in the logs, and a reader with
      // Step Functions access could then decide the review.
      LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: false },
      TracingConfiguration: { Enabled: true },
    });
  });

  it('names its log group under /aws/vendedlogs/states/ with a per-stack suffix: no clash with a retained one', () => {
    // Prepare: the synthesized templates (beforeAll); Act and Assess below.
    const stackUuid = { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] };
    defaults.template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: {
        'Fn::Join': [
          '',
          [
            '/aws/vendedlogs/states/Docket-workflow-',
            { 'Fn::Select': [4, { 'Fn::Split': ['-', stackUuid] }] },
          ],
        ],
      },
    });
    expect(defaults.template.findOutputs('WorkflowLogGroup').WorkflowLogGroup?.Value).toEqual({
      Ref: logicalId(defaults, defaults.stack.workflow.logGroup),
    });
  });

  it('deploys the builder output itself: placeholders filled with each stage ARN give buildDefinition', () => {
    // Prepare
    const machine = workflowMachine(defaults);
    const substitutions = machine.Properties.DefinitionSubstitutions as Record<string, unknown>;
    const stageOf = Object.fromEntries(
      Object.entries(functionsByService(defaults)).map(([svc, f]) => [f.id, svc]),
    );
    const arns = exampleStageArns();
    // Act: what CloudFormation does, with example ARNs for the functions the substitutions point at.
    let text = machine.Properties.DefinitionString as string;
    for (const [key, ref] of Object.entries(substitutions)) {
      text = text.replaceAll(`\${${key}}`, arns[stageOf[getAttTarget(ref)] as Stage]);
    }
    const definition = JSON.parse(text);
    // Assess
    expect(Object.keys(substitutions)).toHaveLength(Object.keys(STAGES).length);
    expect(text).not.toContain('${');
    expect(definition).toEqual(buildDefinition(arns, defaults.config.policy));
    const { isValid, errorsText } = aslValidator(definition);
    expect(errorsText('\n')).toBe('');
    expect(isValid).toBe(true);
  });

  it('sets the review heartbeat from the reviewTimeout context value, through ScheduleReview', () => {
    // Act: ScheduleReview computes the heartbeat from the policy it is given; the review Task reads it.
    const states = (s: SynthResult) =>
      deployedDefinition(s).States as Record<
        string,
        {
          Resource?: string;
          HeartbeatSecondsPath?: string;
          Parameters?: { policy?: { reviewTimeoutSeconds?: number } };
        }
      >;
    const review = (s: SynthResult) =>
      Object.values(states(s)).find((st) => st.Resource === WAIT_FOR_TASK_TOKEN);
    const scheduled = (s: SynthResult) =>
      states(s)[STAGES['schedule-review'].task]?.Parameters?.policy?.reviewTimeoutSeconds;
    // Assess
    expect(review(defaults)?.HeartbeatSecondsPath).toBe('$.reviewWindow.heartbeatSeconds');
    expect(scheduled(defaults)).toBe(86_400);
    expect(scheduled(variant)).toBe(3_600);
  });

  it('may invoke exactly the stage functions', () => {
    // Prepare: the synthesized templates (beforeAll); Act and Assess below.
    const byService = functionsByService(defaults);
    const role = getAttTarget(workflowMachine(defaults).Properties.RoleArn);
    const invoke = roleStatements(defaults, role).find((s) => s.Action === 'lambda:InvokeFunction');
    expect(
      asArray(invoke?.Resource as unknown[])
        .map(getAttTarget)
        .sort(),
    ).toEqual(
      Object.keys(STAGES)
        .map((stage) => byService[stage]?.id)
        .sort(),
    );
  });
});

describe('upload path', () => {
  it('queues S3 Object Created under incoming/ of the documents bucket, with DLQ and retries', () => {
    // Prepare: the synthesized templates (beforeAll); Act and Assess below.
    defaults.template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.s3'],
        'detail-type': ['Object Created'],
        detail: {
          bucket: { name: [{ Ref: logicalId(defaults, defaults.stack.storage.bucket) }] },
          // Non-empty only: a console "Create folder" object would fail ingest and page someone.
          object: { key: [{ prefix: 'incoming/' }], size: [{ numeric: ['>', 0] }] },
        },
      },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [logicalId(defaults, defaults.stack.trigger.queue), 'Arn'] },
          DeadLetterConfig: {
            Arn: { 'Fn::GetAtt': [logicalId(defaults, defaults.stack.trigger.deadLetterQueue), 'Arn'] },
          },
          RetryPolicy: { MaximumRetryAttempts: Match.anyValue(), MaximumEventAgeInSeconds: Match.anyValue() },
        }),
      ],
    });
  });

  it('feeds the starter from the queue with partial batch responses, and the queue dead-letters to the DLQ', () => {
    // Prepare
    const { trigger } = defaults.stack;

    // Assess
    defaults.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [logicalId(defaults, trigger.queue), 'Arn'] },
      FunctionName: { Ref: logicalId(defaults, trigger.starter.function) },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: Match.anyValue() },
    });
    defaults.template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(defaults, trigger.deadLetterQueue), 'Arn'] },
        maxReceiveCount: Match.anyValue(),
      },
      // AWS advises six times the function timeout for an SQS event source.
      VisibilityTimeout: 360,
    });
  });

  it('gives a slot back when an execution of the state machine closes', () => {
    // Prepare
    const { trigger, workflow } = defaults.stack;

    // Assess
    defaults.template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.states'],
        'detail-type': ['Step Functions Execution Status Change'],
        detail: {
          stateMachineArn: [{ Ref: logicalId(defaults, workflow.stateMachine) }],
          status: ['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED'],
        },
      },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [logicalId(defaults, trigger.slotRelease.function), 'Arn'] },
        }),
      ],
    });
  });
});

describe('dead-letter queue', () => {
  it('is encrypted and refuses requests without TLS', () => {
    // Prepare: the synthesized templates (beforeAll); Act and Assess below.
    defaults.template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
    defaults.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('reviewer API', () => {
  it("refuses writes under incoming/ to every principal but the API's role, which signs the upload links", () => {
    // Prepare
    const bucket = logicalId(defaults, defaults.stack.storage.bucket);
    const apiRole = logicalId(defaults, defaults.stack.reviewerApi.handler.role);
    const policy = Object.values(resources(defaults, 'AWS::S3::BucketPolicy')).find(
      (p) => (p.Properties.Bucket as { Ref?: string }).Ref === bucket,
    );
    const apiGrants = statements(defaults).filter(
      (s) => asArray(s.Action).includes('s3:PutObject') && JSON.stringify(s.Resource).includes('/incoming/*'),
    );

    // Assess
    expect(policy?.Properties.PolicyDocument).toMatchObject({
      Statement: expect.arrayContaining([
        {
          Sid: 'UploadsOnlyThroughTheReviewerApi',
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 's3:PutObject',
          Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucket, 'Arn'] }, '/incoming/*']] },
          Condition: { ArnNotEquals: { 'aws:PrincipalArn': { 'Fn::GetAtt': [apiRole, 'Arn'] } } },
        },
      ]),
    });
    expect(apiGrants).toHaveLength(1);
  });

  it('puts the JWT authorizer on every review route, and has no other route', () => {
    // Prepare
    const authorizers = resources(defaults, 'AWS::ApiGatewayV2::Authorizer');
    const [authorizerId] = Object.keys(authorizers);
    const routes = Object.values(resources(defaults, 'AWS::ApiGatewayV2::Route'));
    // Assess
    expect(Object.values(authorizers)[0]?.Properties).toMatchObject({
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Audience: [{ Ref: logicalId(defaults, defaults.stack.reviewerApi.client) }],
        Issuer: expect.anything(),
      },
    });
    expect(routes.map((r) => r.Properties.RouteKey).sort()).toEqual(
      Object.values(ROUTES).map(routeKey).sort(),
    );
    for (const route of routes) {
      expect(route.Properties).toMatchObject({
        AuthorizationType: 'JWT',
        AuthorizerId: { Ref: authorizerId },
      });
    }
  });

  it('allows a configured console origin by CORS on the API and read-only on the bucket, none by default', () => {
    // Prepare
    const documents = (s: SynthResult) =>
      resources(s, 'AWS::S3::Bucket')[logicalId(s, s.stack.storage.bucket)]?.Properties;
    // Assess
    variant.template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: ['https://review.example.com'],
        AllowMethods: ['GET', 'POST'],
        AllowHeaders: ['authorization', 'content-type'],
      },
    });
    expect(documents(variant)?.CorsConfiguration).toEqual({
      CorsRules: [
        expect.objectContaining({
          AllowedOrigins: ['https://review.example.com'],
          AllowedMethods: ['GET', 'HEAD'],
        }),
      ],
    });
    expect(single(defaults, 'AWS::ApiGatewayV2::Api').Properties.CorsConfiguration).toBeUndefined();
    expect(documents(defaults)?.CorsConfiguration).toBeUndefined();
  });

  it('signs in by SRP or password only: no OAuth flows, scopes or callback URLs on the client', () => {
    // Prepare
    const client = single(defaults, 'AWS::Cognito::UserPoolClient').Properties;
    // Assess
    expect((client.ExplicitAuthFlows as string[]).sort()).toEqual(
      ['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH'].sort(),
    );
    expect(client).toMatchObject({ AllowedOAuthFlowsUserPoolClient: false });
    expect(client).not.toHaveProperty('AllowedOAuthFlows');
    expect(client).not.toHaveProperty('AllowedOAuthScopes');
    expect(client).not.toHaveProperty('CallbackURLs');
  });

  it('may answer review tasks and start, describe, stop and redrive executions, nothing more', () => {
    // Prepare
    const role = getAttTarget(functionsByService(defaults)['review-api']?.Properties.Role);
    // Act
    const actions = roleStatements(defaults, role)
      .flatMap((st) => asArray(st.Action))
      .filter((a) => a.startsWith('states:'));
    // Assess: rejections go through SendTaskSuccess too, so no SendTaskFailure.
    expect(actions.sort()).toEqual(
      [
        'states:DescribeExecution',
        'states:RedriveExecution',
        'states:SendTaskHeartbeat',
        'states:SendTaskSuccess',
        'states:StartExecution',
        'states:StopExecution',
      ].sort(),
    );
  });

  it('throttles the stage and writes access logs', () => {
    // Prepare: the synthesized templates (beforeAll); Act and Assess below.
    defaults.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
    });
  });

  it('has a user pool with strong passwords, required TOTP MFA, Plus tier, a tenant attribute and the groups', () => {
    // Prepare: the synthesized templates (beforeAll); Act and Assess below.
    defaults.template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Policies: {
        PasswordPolicy: {
          MinimumLength: 12,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        },
      },
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      UserPoolTier: 'PLUS',
      Schema: Match.arrayWith([Match.objectLike({ Name: 'tenant', AttributeDataType: 'String' })]),
    });
    const groups = Object.values(resources(defaults, 'AWS::Cognito::UserPoolGroup')).map(
      (g) => g.Properties.GroupName,
    );
    expect(groups.sort()).toEqual([...GROUPS].sort());
  });
});

describe('operations', () => {
  it('alarms on faults and the review SLA (test/infra/operations.test.ts says which), never on a bad PDF', () => {
    // Prepare
    const topic = logicalId(defaults, defaults.stack.operations.topic);
    const alarms = Object.values(resources(defaults, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties);
    const backlog = (s: SynthResult) =>
      Object.values(resources(s, 'AWS::CloudWatch::Alarm')).find(
        (a) => a.Properties.MetricName === 'OldestReviewAgeSeconds',
      )?.Properties;
    // Assess
    // Single-metric alarms by metric; the fault sum and the throttle parts are metric math.
    expect(alarms.flatMap((a) => (a.MetricName ? [a.MetricName] : [])).sort()).toEqual(
      [
        'ApproximateNumberOfMessagesVisible',
        'Errors',
        'ExecutionOutcomes',
        'LedgerEntriesChanged',
        'OldestReviewAgeSeconds',
        'RetriesExhausted',
        'ReviewsPastSla',
        'UnparseableEvents',
      ].sort(),
    );
    // 80% of the review timeout: 24 h by default, 1 h in the variant.
    expect(backlog(defaults)).toMatchObject({ Threshold: 69_120, Namespace: 'Docket' });
    expect(backlog(variant)).toMatchObject({ Threshold: 2_880 });
    // The throttle parts page through their composite alarm.
    for (const alarm of alarms.filter((a) => a.AlarmActions))
      expect(alarm.AlarmActions).toEqual([{ Ref: topic }]);
    defaults.template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    variant.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
  });

  it('counts outcomes from the state machine log and publishes every output the CLI reads', () => {
    // Prepare: the synthesized templates (beforeAll); Act and Assess below.
    defaults.template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: logicalId(defaults, defaults.stack.workflow.logGroup) },
      MetricTransformations: [
        Match.objectLike({ Dimensions: [{ Key: 'outcome', Value: '$.details.name' }] }),
      ],
    });
    defaults.template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    expect(Object.keys(defaults.template.findOutputs('*')).sort()).toEqual(
      Object.values(StackOutput)
        .map((o) => o.key)
        .sort(),
    );
  });
});
