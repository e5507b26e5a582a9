import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DEBIAN_TESSDATA, OCR_ENV, OCR_LANGUAGES } from '../../lambdas/ocr/ocrSettings.js';
import { EnvVar } from '../../lambdas/shared/config.js';
import { STAGES, type Stage, stageFunctionTimeoutSeconds } from '../../statemachine/index.js';
import type { DocketConfig, ExtractorConfig } from '../config.js';
import { wildcardResourceFinding } from '../nagFindings.js';
import { type DocumentStorage, type LogAccess, Prefix } from './DocumentStorage.js';
import { functionLogs, StageFunction } from './StageFunction.js';

/** What one stage touches besides the workflow store, which every stage uses. */
interface StageAccess {
  readonly description: string;
  readonly memorySize: number;
  readonly documents?: { read: Prefix[]; write?: Prefix[]; remove?: Prefix[] };
  readonly providers?: boolean;
  /** The transition log: `append` unless the stage makes no transition. */
  readonly log?: LogAccess;
}

/**
 * Per-stage access: each stage may touch only what its job needs. Parse reads artifacts too: a
 * content-hash hit copies the cached text artifact instead of parsing again.
 */
const STAGE_ACCESS: Record<Stage, StageAccess> = {
  ingest: {
    description: 'S3 Object Created -> workflow at pending (dedupe, SHA-256), or quarantine of a bad key',
    memorySize: 512,
    documents: {
      read: [Prefix.incoming, Prefix.quarantine],
      write: [Prefix.quarantine],
      remove: [Prefix.incoming],
    },
  },
  parse: {
    description: 'PDF -> text artifact, under size, page, time and memory bounds',
    memorySize: 1024,
    documents: { read: [Prefix.incoming, Prefix.artifacts], write: [Prefix.artifacts] },
  },
  ocr: {
    description: 'Scan or image -> text artifact by OCR (Textract job, or tesseract under bounds)',
    memorySize: 512,
    documents: { read: [Prefix.incoming, Prefix.artifacts], write: [Prefix.artifacts] },
  },
  extract: {
    description: 'Text -> document type and fields with confidence',
    memorySize: 512,
    documents: { read: [Prefix.artifacts], write: [Prefix.artifacts] },
  },
  validate: {
    description: 'Schema and business rules, provider lookup, confidence, review reasons',
    memorySize: 512,
    documents: { read: [Prefix.artifacts], write: [Prefix.artifacts] },
    providers: true,
  },
  'schedule-review': {
    description: "Computes the review's heartbeat (what is left of it on a resume)",
    memorySize: 256,
    log: 'none',
  },
  'request-review': { description: 'Stores the review task token server-side', memorySize: 256, log: 'none' },
  'apply-review': {
    description: "Applies the reviewer's decision and corrections",
    memorySize: 256,
    documents: { read: [Prefix.artifacts], write: [Prefix.artifacts] },
  },
  compare: {
    description: 'Compares against the reference document and writes the report',
    memorySize: 512,
    documents: { read: [Prefix.artifacts], write: [Prefix.artifacts] },
  },
  'mark-failed': { description: 'Records a stage error and decides retry or reject', memorySize: 256 },
  'mark-rejected': { description: 'failed -> rejected', memorySize: 256 },
  'mark-timed-out': { description: 'review_required -> timed_out', memorySize: 256 },
};

/**
 * Memory of a stage's function, MB: parse's comes from the context (it holds the parse guard), and
 * so does ocr's with tesseract (the OCR child's bound plus the handler's own ~300 MB).
 */
export const stageMemoryMb = (stage: Stage, config: DocketConfig): number => {
  if (stage === 'parse') return config.parse.functionMemoryMb;
  if (stage === 'ocr' && config.ocr.engine === 'tesseract') return config.ocr.memoryMb + 512;
  return STAGE_ACCESS[stage].memorySize;
};

/** Where the tesseract engine's language data sits inside the OCR function's bundle. */
const BUNDLED_TESSDATA = 'tessdata';

/**
 * How the ocr function is bundled: the tesseract engine is loaded only when configured, and its
 * packages (a wasm core, pdf.js, a native canvas binary) cannot be inlined by esbuild. With
 * Textract they stay out of the bundle; with tesseract they are installed next to it from the
 * lock file, and the language data is copied from Debian's tessdata (tesseract-ocr-eng, -deu, ...
 * on the machine that synthesizes).
 */
export const ocrBundling = (engine: DocketConfig['ocr']['engine']): Partial<BundlingOptions> => {
  // Imported with `import()` where they are used, so an external one is only needed when OCR runs.
  const engineModules = ['tesseract.js', '@napi-rs/canvas', 'pdfjs-dist'];
  if (engine === 'textract') return { externalModules: engineModules };
  return {
    nodeModules: engineModules,
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (_input: string, output: string) => [
        `mkdir -p ${output}/${BUNDLED_TESSDATA}`,
        `cp ${OCR_LANGUAGES.map((l) => `${DEBIAN_TESSDATA}/${l}.traineddata`).join(' ')} ${output}/${BUNDLED_TESSDATA}/`,
      ],
    },
  };
};

/** Settings of the stage functions. */
export interface WorkflowFunctionsProps {
  readonly storage: DocumentStorage;
  readonly config: DocketConfig;
  /** Per-stage esbuild overrides (e.g. for parse's PDF engine), merged over the defaults. */
  readonly bundling?: Partial<Record<Stage, Partial<BundlingOptions>>>;
  /**
   * Where ingest sends an event it cannot parse. A queue made after the functions (today's
   * UploadTrigger's, which needs the state machine) is bound with `bindDeadLetterQueue` instead.
   */
  readonly deadLetterQueue?: IQueue;
}

/**
 * A cross-region inference profile id: a geography prefix (`eu.`, `us-gov.`, `jp.`, `global.`,
 * and whichever AWS adds next) before a `provider.model` id. A plain model id has one dot fewer
 * (`anthropic.claude-...`), so its provider is never taken for a geography.
 */
const INFERENCE_PROFILE_ID = /^([a-z]+(?:-[a-z]+)*)\.([a-z0-9-]+\..+)$/;

/** The Bedrock resources the extract function may invoke: the model, or a cross-region profile. */
export const bedrockResources = (stack: Stack, modelId: string): string[] => {
  const profile = INFERENCE_PROFILE_ID.exec(modelId);
  if (!profile)
    return [
      stack.formatArn({
        service: 'bedrock',
        account: '',
        resource: 'foundation-model',
        resourceName: modelId,
      }),
    ];
  // An inference profile routes to the model in any region of its geography.
  return [
    stack.formatArn({ service: 'bedrock', resource: 'inference-profile', resourceName: modelId }),
    `arn:${stack.partition}:bedrock:*::foundation-model/${profile[2]}`,
  ];
};

/**
 * One function per stage of the state machine, each bound to exactly the storage it needs; the
 * extractor's settings (and Bedrock permissions only when Bedrock is chosen) on extract, the PDF
 * limits on parse.
 */
export class WorkflowFunctions extends Construct {
  readonly stages: Readonly<Record<Stage, StageFunction>>;

  constructor(scope: Construct, id: string, props: WorkflowFunctionsProps) {
    super(scope, id);
    const { storage, config } = props;
    const stages = {} as Record<Stage, StageFunction>;
    for (const stage of Object.keys(STAGES) as Stage[]) {
      const access = STAGE_ACCESS[stage];
      const fn = new StageFunction(this, STAGES[stage].task, {
        name: stage,
        description: `Docket ${stage}: ${access.description}`,
        memorySize: stageMemoryMb(stage, config),
        timeout: Duration.seconds(stageFunctionTimeoutSeconds(config.policy)),
        ...functionLogs(config),
        ...(stage === 'parse' &&
          config.parse.reservedConcurrency !== undefined && {
            reservedConcurrency: config.parse.reservedConcurrency,
          }),
        ...((props.bundling?.[stage] || stage === 'ocr') && {
          bundling: { ...(stage === 'ocr' && ocrBundling(config.ocr.engine)), ...props.bundling?.[stage] },
        }),
      });
      storage.bindStore(fn, access.log);
      if (access.documents) storage.bindDocuments(fn, access.documents);
      if (access.providers) storage.bindProviders(fn);
      stages[stage] = fn;
    }
    this.bindParseLimits(stages.parse, config.parse);
    // Ingest does not hash an upload parse will refuse as too large (it could outlast the stage).
    stages.ingest.addEnvironment(EnvVar.maxPdfBytes, String(config.parse.maxPdfBytes));
    this.bindExtractor(stages.extract, config.extractor);
    this.bindOcr(stages.ocr, config);
    this.stages = stages;
    if (props.deadLetterQueue) this.bindDeadLetterQueue(props.deadLetterQueue);
  }

  /**
   * Ingest may send to the dead-letter queue (an event it cannot parse goes there with the
   * reason) and finds it under `DEAD_LETTER_QUEUE_URL`; no other stage may.
   */
  bindDeadLetterQueue(queue: IQueue): void {
    this.stages.ingest.bindQueueSender(queue, EnvVar.deadLetterQueueUrl);
  }

  private bindParseLimits(fn: StageFunction, parse: DocketConfig['parse']): void {
    fn.addEnvironment(EnvVar.maxPdfBytes, String(parse.maxPdfBytes));
    fn.addEnvironment(EnvVar.maxPdfPages, String(parse.maxPdfPages));
    fn.addEnvironment(EnvVar.parseTimeoutMs, String(parse.timeoutMs));
    fn.addEnvironment(EnvVar.parseMemoryMb, String(parse.memoryMb));
  }

  private bindOcr(fn: StageFunction, config: DocketConfig): void {
    const { ocr } = config;
    fn.addEnvironment(OCR_ENV.engine, ocr.engine);
    fn.addEnvironment(OCR_ENV.maxPages, String(ocr.maxPages));
    fn.addEnvironment(OCR_ENV.pageTimeoutMs, String(ocr.pageTimeoutMs));
    fn.addEnvironment(OCR_ENV.maxRssBytes, String(ocr.memoryMb));
    fn.addEnvironment(OCR_ENV.pollSeconds, String(ocr.pollSeconds));
    // The OCR stage reads the upload under the same size bound as parse.
    fn.addEnvironment(EnvVar.maxPdfBytes, String(config.parse.maxPdfBytes));
    if (ocr.engine === 'tesseract') {
      fn.addEnvironment(OCR_ENV.tessdataDir, `/var/task/${BUNDLED_TESSDATA}`);
      return;
    }
    // Textract reads the S3 object with the function's own credentials (its incoming/ read grant).
    fn.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['textract:StartDocumentTextDetection', 'textract:GetDocumentTextDetection'],
        resources: ['*'],
      }),
    );
    Validations.of(fn.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Textract text detection has no resource-level permissions: its actions only take *.',
    });
  }

  private bindExtractor(fn: StageFunction, extractor: ExtractorConfig): void {
    fn.addEnvironment(EnvVar.extractor, extractor.kind);
    if (extractor.kind !== 'bedrock') return;
    fn.addEnvironment(EnvVar.bedrockModelId, extractor.modelId);
    const resources = bedrockResources(Stack.of(this), extractor.modelId);
    fn.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources }));
    for (const resource of resources.filter((r) => r.includes('*'))) {
      Validations.of(fn.role).acknowledge({
        id: wildcardResourceFinding(this, resource),
        reason:
          'A cross-region inference profile invokes its one model in whichever region of the geography serves it.',
      });
    }
  }

  /** Every stage function, for dashboards and alarms. */
  all(): StageFunction[] {
    return Object.values(this.stages);
  }
}
