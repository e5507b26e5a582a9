/** Metric names review-metrics publishes (namespace Docket, dimension service=review-metrics). */
export const ReviewQueueMetric = {
  depth: 'ReviewQueueDepth',
  oldestAge: 'OldestReviewAgeSeconds',
} as const;

/** The Powertools service name of the function, which is also its metrics' `service` dimension. */
export const REVIEW_METRICS_SERVICE = 'review-metrics';
