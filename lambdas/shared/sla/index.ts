/**
 * Review SLA: the review episodes a workflow's log records, and the report of their waits against
 * a target (`docket report sla`). Pure; the callers read the log.
 */
export { type ReviewEpisode, reviewEpisodes } from './reviewEpisodes.js';
export { type SlaReport, slaReport, type WaitStats } from './slaReport.js';
export { reviewSlaSecondsFromEnv } from './target.js';
