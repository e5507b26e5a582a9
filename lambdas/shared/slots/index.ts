/** Execution slots: the bound on running executions the starter takes from and the workflow gives back. */
export { ExecutionSlots, SLOTS_ITEM_ID, type SlotHolder, type TakeResult } from './executionSlots.js';
export { executionSlotLimitFromEnv } from './limit.js';
export { executionArnOf, needsSlot } from './needsSlot.js';
