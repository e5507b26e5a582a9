import { PERMANENT_ERROR_NAMES } from '../../statemachine/index.js';

export { PERMANENT_ERROR_NAMES };

/**
 * Whether an error of this name may succeed when the stage runs again. mark-failed only sees what
 * Step Functions passes on (`Error` = the thrown error's name), so it decides by name, from the
 * one list of permanent errors (statemachine/permanentErrors.ts) the ASL retriers also use.
 */
export const isRetryableErrorName = (name: string): boolean => !PERMANENT_ERROR_NAMES.has(name);
