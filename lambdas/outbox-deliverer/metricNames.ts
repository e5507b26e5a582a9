/** The Powertools service name of the deliverer, which is also its metrics' `service` dimension. */
export const OUTBOX_DELIVERER_SERVICE = 'outbox-deliverer';

/** Metric names the deliverer publishes (namespace Docket, dimension service=outbox-deliverer). */
export const EventDeliveryMetric = {
  /** Events the run tried to publish (each PutEvents entry, and each it could not build). */
  attempts: 'EventDeliveryAttempts',
  /** Events EventBridge accepted. */
  delivered: 'EventsDelivered',
  /** Events that stay in their outbox for the next run: a fault, alarmed when it repeats. */
  failures: 'EventDeliveryFailures',
} as const;
