/** Metric names review-metrics publishes (namespace Docket, dimension service=review-metrics). */
export const ReviewQueueMetric = {
  depth: 'ReviewQueueDepth',
  oldestAge: 'OldestReviewAgeSeconds',
  /** Open reviews waiting longer than the review target (`reviewSlaSeconds`). */
  pastTarget: 'ReviewsPastSla',
} as const;

/** The Powertools service name of the function, which is also its metrics' `service` dimension. */
export const REVIEW_METRICS_SERVICE = 'review-metrics';
