const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'ETIMEDOUT']);

/** The errno code of a network failure, looked for through `cause` chains (fetch wraps them). */
export const networkCode = (error: unknown): string | undefined => {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code && NETWORK_CODES.has(code)) return code;
    const nested = (e as { errors?: unknown[] }).errors?.[0];
    if (nested) return networkCode(nested);
  }
  return undefined;
};

/**
 * A review-API error (Powertools `HttpError`: status, type and details), recognised by shape so
 * the CLI does not load the HTTP router to print an error.
 */
const isHttpError = (
  error: unknown,
): error is Error & { statusCode: number; errorType: string; details?: Record<string, unknown> } =>
  error instanceof Error &&
  typeof (error as { statusCode?: unknown }).statusCode === 'number' &&
  typeof (error as { errorType?: unknown }).errorType === 'string';

const issuesOf = (details: Record<string, unknown> | undefined): string => {
  const issues = details?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return '';
  const listed = issues
    .slice(0, 5)
    .map((i) =>
      typeof i === 'object' && i
        ? `${(i as { field?: string }).field}: ${(i as { message?: string }).message}`
        : String(i),
    )
    .join('; ');
  return ` (${listed}${issues.length > 5 ? `; and ${issues.length - 5} more` : ''})`;
};

/**
 * A refusal the review API sent over HTTP (status and its JSON body, typed or not) as one line,
 * the way an in-process refusal is printed.
 */
export const describeHttpRefusal = (status: number, body: string): string => {
  let parsed: { message?: unknown; details?: Record<string, unknown> } = {};
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  const message = typeof parsed.message === 'string' ? parsed.message : `the review API answered ${status}`;
  return `${message}${issuesOf(parsed.details)} [${status}]`;
};

/**
 * One line that says what went wrong and what to do: the message of Docket's own errors (they are
 * written that way), the status and issues of a review-API error, and a plain sentence for a
 * network or credentials failure instead of an SDK dump.
 */
export const describeError = (error: unknown): string => {
  if (isHttpError(error)) {
    return `${error.message}${issuesOf(error.details)} [${error.statusCode}]`;
  }
  if (!(error instanceof Error)) return String(error);
  const code = networkCode(error);
  if (code) {
    return `cannot reach the stack (${code}): is it running? Start it with \`docket start\`, or check --stack.`;
  }
  if (error.name === 'CredentialsProviderError') {
    return 'no AWS credentials found: configure them the standard way (AWS_PROFILE, `aws configure`, environment variables).';
  }
  const firstLine = error.message.split('\n')[0]?.trim() || error.name;
  return firstLine;
};
