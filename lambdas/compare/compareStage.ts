import type { S3Client } from '@aws-sdk/client-s3';
import {
  ArtifactMissingError,
  artifactKey,
  finalRecordKey,
  getJsonArtifact,
  putJsonArtifact,
} from '../shared/artifacts.js';
import {
  type ContractFields,
  completeFields,
  type Extraction,
  type InvoiceFields,
} from '../shared/documents/index.js';
import type { StageInput } from '../shared/stageInput.js';
import { type StageResult, StageRun } from '../shared/stageRunner.js';
import type { WorkflowItem, WorkflowStore } from '../shared/store/index.js';
import { compareContract } from './compareContract.js';
import { compareInvoice } from './compareInvoice.js';
import { InvalidExtractionForCompare } from './errors.js';
import { findInvoiceContract, findPreviousContract } from './findReference.js';
import type { ComparisonReport } from './report.js';

/** What the compare stage works with. */
export interface CompareStageDeps {
  store: WorkflowStore;
  s3: S3Client;
  bucket: string;
}

type FieldsOf<T extends 'contract' | 'invoice'> = T extends 'contract' ? ContractFields : InvoiceFields;

/** The complete fields of the record at `key` (a workflow's), of type `docType`. */
const fieldsAt = async <T extends 'contract' | 'invoice'>(
  deps: CompareStageDeps,
  workflowId: string,
  key: string,
  docType: T,
): Promise<FieldsOf<T>> => {
  const extraction = await getJsonArtifact<Extraction>(deps.s3, deps.bucket, key);
  if (extraction.docType !== docType) throw new InvalidExtractionForCompare(workflowId, []);
  const complete = completeFields(extraction as never);
  if (!complete.ok) {
    throw new InvalidExtractionForCompare(
      workflowId,
      complete.issues.map((i) => `${i.field} ${i.message}`),
    );
  }
  return complete.fields as FieldsOf<T>;
};

/** The validated fields of the workflow being compared: its reviewed record when a reviewer corrected it. */
const fieldsOf = async <T extends 'contract' | 'invoice'>(
  deps: CompareStageDeps,
  item: WorkflowItem,
  docType: T,
): Promise<FieldsOf<T>> => {
  const key = finalRecordKey(item.artifacts);
  if (!key) throw new ArtifactMissingError(artifactKey(item.id, 'extraction', item.run));
  return fieldsAt(deps, item.id, key, docType);
};

/**
 * The fields a reference completed with: its final record once completed; while it runs again
 * (`docket reprocess`) the record of the run that completed, not the rerun's unchecked one, whose
 * artifacts may not exist yet. Undefined when it has none (erased).
 */
const referenceFields = async <T extends 'contract' | 'invoice'>(
  deps: CompareStageDeps,
  reference: WorkflowItem,
  docType: T,
): Promise<FieldsOf<T> | undefined> => {
  const key =
    reference.state === 'completed'
      ? finalRecordKey(reference.artifacts)
      : reference.reprocess?.previous.record;
  return key ? fieldsAt(deps, reference.id, key, docType) : undefined;
};

/**
 * The comparison of a workflow's record (the reviewed one, else the extraction) with its
 * reference: a contract with the previous one of the same parties, an invoice with its contract.
 * The compare stage writes it; the review API shows it to a reviewer before the decision.
 * `InvalidExtractionForCompare` while a required field is missing.
 */
export const comparisonOf = async (deps: CompareStageDeps, item: WorkflowItem): Promise<ComparisonReport> => {
  if (item.docType === 'invoice') {
    const invoice = await fieldsOf(deps, item, 'invoice');
    const { contract, invoicedBefore } = await findInvoiceContract(deps.store, item);
    const terms = contract && (await referenceFields(deps, contract, 'contract'));
    return compareInvoice(invoice, terms, {
      invoicedBefore,
      ...(contract && terms && { contractId: contract.id }),
    });
  }
  const current = await fieldsOf(deps, item, 'contract');
  const previous = await findPreviousContract(deps.store, item);
  const before = previous && (await referenceFields(deps, previous, 'contract'));
  return compareContract(current, before, { ...(previous && before && { previousId: previous.id }) });
};

/**
 * The compare stage, the last one: `validated` -> `comparing` -> `completed`. A contract is
 * compared with the previous one of the same provider and customer, an invoice with its
 * provider's contract; the report goes to `artifacts/{id}/comparison.json`.
 */
export const compareStage = async (deps: CompareStageDeps, input: StageInput): Promise<StageResult> => {
  const run = await StageRun.load('compare', deps.store, input.workflowId, input.policy);
  if (!(await run.enter('comparing', { from: 'validated', event: 'start_compare' }))) return run.result(true);
  const report = await comparisonOf(deps, run.item);
  const key = artifactKey(run.item.id, 'comparison', run.item.run);
  await putJsonArtifact(deps.s3, deps.bucket, key, report);
  await run.apply('compared', {
    patch: {
      'artifacts.comparison': key,
      'summary.comparison': {
        status: report.summary.status,
        critical: report.summary.critical,
        warning: report.summary.warning,
      },
      ...(report.referenceId && { 'summary.referenceId': report.referenceId }),
    },
    metadata: {
      status: report.summary.status,
      findings: report.findings.length,
      referenceId: report.referenceId,
    },
  });
  return run.result();
};
