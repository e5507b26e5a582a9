import type { WorkflowItem } from './store/index.js';

/** A workflow's tenant and document type, as the definition's review policy selection reads them. */
export interface Routing {
  tenant: string;
  type: string;
}

/**
 * The routing of a workflow: validate returns it (`$.result.routing`) and a resumed review carries
 * it, so the definition's SelectPolicy finds the document's policy either way.
 */
export const routingOf = (item: WorkflowItem): Routing => ({
  tenant: item.tenant,
  type: item.docType ?? 'unclassified',
});
