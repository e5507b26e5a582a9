import type { ReviewComparison } from '../../lambdas/review-api/reviewComparison.js';
import type {
  ExtractedField,
  Extraction,
  FieldSource,
  RejectedValue,
  TextSource,
} from '../../lambdas/shared/documents/index.js';
import type { LogEntry } from '../../lambdas/shared/store/index.js';
import type { ReviewSummary, WorkflowView } from '../../lambdas/shared/workflowViews.js';

export type { FieldSource, ReviewSummary, TextSource, WorkflowView };

/** GET /reviews/{id}. */
export interface ReviewDetail {
  workflow: WorkflowView;
  /** `unclassified`: the reviewer chooses the type (and fills its fields). */
  docType?: 'contract' | 'invoice' | 'unclassified';
  /** ISO 639-1 code of the document's language. */
  language?: string;
  /** How the text was read: the PDF's text layer, OCR, or e-invoice XML. */
  textOrigin?: 'text-layer' | 'ocr' | 'xml';
  /** The e-invoice data the document carries, and whether the page agrees with it. */
  einvoice?: Pick<NonNullable<Extraction['einvoice']>, 'syntax' | 'consistent' | 'issues' | 'crossCheck'>;
  fields: Record<string, ExtractedField<unknown>>;
  rejected: RejectedValue[];
  pdfUrl?: string;
  pdfUrlExpiresInSeconds: number;
  /** The comparison with the document's reference (stored, or a `preview` for a waiting review). */
  comparison?: ReviewComparison;
}

/** One entry of GET /workflows/{id}/history. */
export type HistoryEntry = Omit<LogEntry, 'patch'>;

/** A problem with one field, as a 422 lists it. */
export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * The most reviews the console reads: a table of more helps no reviewer, and every refresh (15 s)
 * reads them all again.
 */
export const QUEUE_LIMIT = 2000;
/** The largest page the review API serves (it caps `limit` at 500): the fewest round trips. */
const QUEUE_PAGE = 500;

/** The queue as the console shows it; `truncated` when more reviews wait than it read. */
export interface Queue {
  items: ReviewSummary[];
  truncated: boolean;
}

/** A non-2xx answer of the review API. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly issues: FieldIssue[] = [],
    /** The API's name for the refusal (`error` of the body): tells apart 409s that are not final. */
    readonly code?: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * The review API client. Locally the API is same-origin under `/api`; a deployment elsewhere sets
 * `apiBase` in `config.json` next to index.html (see README, "The review console on AWS").
 */
export class Api {
  constructor(
    private readonly base: string,
    private readonly token: () => string | undefined,
    /** Called when the API refuses the token (expired, or for another stack). */
    private readonly unauthorized: (message: string) => void = () => undefined,
  ) {}

  /** Reads `config.json` if the deployment has one; the local runtime serves none. */
  static async discoverBase(): Promise<string> {
    try {
      const response = await fetch('config.json', { headers: { 'cache-control': 'no-cache' } });
      const config = (await response.json()) as { apiBase?: unknown };
      // "" is the API at the root of this origin (the console served by the API itself).
      if (typeof config.apiBase === 'string') return config.apiBase.replace(/\/$/, '');
    } catch {
      // No config (the local server answers index.html): same-origin /api.
    }
    return '/api';
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token() ?? ''}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ApiError(0, 'The review API cannot be reached. Is the stack running?');
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      json = { message: text };
    }
    if (!response.ok) {
      const error = json as {
        message?: string;
        error?: string;
        details?: { issues?: FieldIssue[] } & Record<string, unknown>;
      };
      if (response.status === 401) this.unauthorized(error.message ?? 'Unauthorized');
      throw new ApiError(
        response.status,
        error.message ?? response.statusText,
        error.details?.issues ?? [],
        error.error,
        error.details ?? {},
      );
    }
    return json as T;
  }

  /** One page of the caller's tenant's queue, most urgent first; `cursor` is where the next begins. */
  reviewPage = (options: { limit?: number; cursor?: string } = {}) => {
    const query = new URLSearchParams();
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    if (options.cursor) query.set('cursor', options.cursor);
    return this.call<{ items: ReviewSummary[]; cursor?: string }>('GET', `/reviews?${query}`);
  };

  /**
   * The caller's tenant's queue, most urgent first, page after page in the API's order, up to `max`
   * reviews. It reads one review more than it keeps, so `truncated` means more wait, not "maybe".
   */
  reviews = async (max = QUEUE_LIMIT): Promise<Queue> => {
    const items: ReviewSummary[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.reviewPage({ limit: Math.min(QUEUE_PAGE, max + 1 - items.length), cursor });
      items.push(...page.items);
      // The queue index has only a key condition, so an empty page is the end even with a cursor;
      // stopping there also keeps a misbehaving API from sending us round forever.
      if (page.items.length === 0) break;
      cursor = page.cursor;
    } while (cursor && items.length <= max);
    return { items: items.slice(0, max), truncated: items.length > max };
  };
  /** One review: workflow, fields, a short-lived PDF link. */
  review = (id: string) => this.call<ReviewDetail>('GET', `/reviews/${encodeURIComponent(id)}`);
  /**
   * Claims the review, or renews the caller's own claim (and restarts the review's timeout); 409
   * while another reviewer's claim holds, unless `takeOver`.
   */
  claim = (id: string, options: { takeOver?: boolean } = {}) =>
    this.call<{
      workflowId: string;
      claimedBy: string;
      claimedAt: string;
      /** Until when the claim holds unless the holder acts again. */
      claimExpiresAt: string;
      dueAt?: string;
      takenOverFrom?: string;
      /** Whose claim had run out and was replaced (no take-over). */
      lapsedClaimOf?: string;
    }>('POST', `/reviews/${encodeURIComponent(id)}/claim`, options.takeOver ? { takeOver: true } : undefined);
  /** Approve, correct or reject; 409 if someone decided first, 410 if it expired. */
  decide = (
    id: string,
    body: {
      decision: 'approve' | 'correct' | 'reject';
      corrections?: Record<string, unknown>;
      docType?: 'contract' | 'invoice';
      reason?: string;
    },
  ) => this.call<{ workflowId: string }>('POST', `/reviews/${encodeURIComponent(id)}/decision`, body);
  /** The transition log. */
  history = (id: string) =>
    this.call<{ workflowId: string; entries: HistoryEntry[] }>(
      'GET',
      `/workflows/${encodeURIComponent(id)}/history`,
    );
}
