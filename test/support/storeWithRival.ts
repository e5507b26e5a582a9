import { WorkflowStore } from '../../lambdas/shared/store/index.js';

/**
 * A workflow store that runs a rival's move just before this caller's next conditional write:
 * the interleaving a race produces, made deterministic. Set `rival`; it runs once.
 */
export class StoreWithRival extends WorkflowStore {
  rival: (() => Promise<void>) | undefined;
  override async update(...args: Parameters<WorkflowStore['update']>) {
    const rival = this.rival;
    this.rival = undefined;
    await rival?.();
    return super.update(...args);
  }
}
