/**
 * AWS list prices used by `npm run cost`: us-east-1, on-demand, no free tier, as published on the
 * pricing pages below as of 2025 (DynamoDB after its 2024-11 on-demand price cut). Update the
 * constants and this date together.
 */

/** Step Functions Standard: $0.025 per 1,000 state transitions. https://aws.amazon.com/step-functions/pricing/ */
export const SFN_STANDARD_PER_TRANSITION = 0.025 / 1_000;

/** Lambda on Arm (Graviton): $0.0000133334 per GB-second. https://aws.amazon.com/lambda/pricing/ */
export const LAMBDA_ARM_PER_GB_SECOND = 0.0000133334;
/** Lambda requests: $0.20 per 1M. https://aws.amazon.com/lambda/pricing/ */
export const LAMBDA_PER_REQUEST = 0.2 / 1_000_000;

/**
 * DynamoDB on-demand (after the 2024-11 price cut): $0.625 per million write request units,
 * $0.125 per million read request units. https://aws.amazon.com/dynamodb/pricing/on-demand/
 */
export const DYNAMODB_PER_WRITE_UNIT = 0.625 / 1_000_000;
export const DYNAMODB_PER_READ_UNIT = 0.125 / 1_000_000;

/**
 * S3 Standard requests: PUT, COPY, POST, LIST $0.005 per 1,000; GET and others $0.0004 per 1,000.
 * https://aws.amazon.com/s3/pricing/
 */
export const S3_PER_WRITE_REQUEST = 0.005 / 1_000;
export const S3_PER_READ_REQUEST = 0.0004 / 1_000;

/**
 * Step Functions Express: $1.00 per million requests (executions started), and $0.06 per GB-hour
 * ($0.00001667 per GB-second) for the first 1,000 GB-hours a month, duration rounded up to 100 ms
 * and memory billed in 64 MB chunks (memory = 50 MB + definition size + execution data size).
 * https://aws.amazon.com/step-functions/pricing/ (Express Workflows pricing details, examples 3-4;
 * read 2026-11 through the docs search: same figures as the 2020 page, archived).
 */
export const SFN_EXPRESS_PER_REQUEST = 1 / 1_000_000;
export const SFN_EXPRESS_PER_GB_SECOND = 0.06 / 3_600;
/** Express duration is billed in these steps. */
export const SFN_EXPRESS_DURATION_STEP_MS = 100;
/** Express memory is billed in these chunks. */
export const SFN_EXPRESS_MEMORY_CHUNK_MB = 64;
/** The pricing page's memory estimate starts from this much per execution. */
export const SFN_EXPRESS_BASE_MEMORY_MB = 50;

/**
 * CloudWatch Logs standard ingestion: $0.50 per GB; Step Functions logs are vended logs, $0.50 per
 * GB for the first 10 TB. https://aws.amazon.com/cloudwatch/pricing/
 */
export const LOGS_PER_GB_INGESTED = 0.5;
/**
 * Bytes CloudWatch Logs counts per log event on top of its message (the PutLogEvents size rule:
 * "the sum of all event messages in UTF-8, plus 26 bytes for each log event").
 * https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_PutLogEvents.html
 */
export const LOGS_BYTES_PER_EVENT_OVERHEAD = 26;

/** X-Ray: $5.00 per million traces recorded. https://aws.amazon.com/xray/pricing/ */
export const XRAY_PER_TRACE = 5 / 1_000_000;

/** API Gateway HTTP APIs: $1.00 per million requests (first 300M). https://aws.amazon.com/api-gateway/pricing/ */
export const HTTP_API_PER_REQUEST = 1 / 1_000_000;
