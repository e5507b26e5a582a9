import { RequestEntityTooLargeError } from '@aws-lambda-powertools/event-handler/http';
import * as z from 'zod';
import { describeIssues } from '../shared/plainIssues.js';
import type { Principal } from '../shared/principal.js';
import { bodyIssues, UnprocessableError } from '../shared/review/index.js';
import type { ApiDeps } from './apiDeps.js';
import { uploadKey } from './uploadKey.js';

/** How long an upload link stays valid. */
export const UPLOAD_LINK_SECONDS = 300;

/** What may be uploaded: PDFs, and the images and e-invoice XML the parse stage reads. */
export const UPLOAD_CONTENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/tiff',
  'application/xml',
] as const;

/** The body of POST /uploads. */
export const UploadBodySchema = z
  .object({
    /** Where below the caller's tenant prefix: `invoice.pdf`, `2026/03/invoice.pdf`. */
    fileName: z.string().min(1).max(1024),
    /** The exact size in bytes: it is signed into the link. */
    size: z.number().int().min(1),
    contentType: z.enum(UPLOAD_CONTENT_TYPES).default('application/pdf'),
  })
  .strict();

/**
 * An upload link: a presigned PUT for `incoming/{tenant}/{fileName}`, the tenant the caller's own
 * (from the token, never from the request), for a body of exactly `size` bytes of `contentType`.
 * Only the API's own role may write under `incoming/` (the bucket policy), so this is the one way
 * in for an uploader, and an upload can only ever start a workflow of the uploader's tenant.
 */
export const createUpload = async (deps: ApiDeps, principal: Principal, body: unknown) => {
  const parsed = UploadBodySchema.safeParse(body);
  if (!parsed.success) {
    const issues = bodyIssues(parsed.error, body);
    throw new UnprocessableError(
      `No upload link was made: ${describeIssues(issues)}. Send {"fileName": "invoice.pdf", ` +
        `"size": <bytes>, "contentType": one of ${UPLOAD_CONTENT_TYPES.join(', ')}}.`,
      { issues },
    );
  }
  const { fileName, size, contentType } = parsed.data;
  const key = uploadKey(principal.tenant, fileName);
  if (size > deps.maxUploadBytes) {
    throw new RequestEntityTooLargeError(
      `${fileName} is ${size} bytes; uploads may be at most ${deps.maxUploadBytes} bytes. Split the ` +
        'document, or scan it at a lower resolution.',
    );
  }
  const url = await deps.presignPut(
    deps.bucket,
    key,
    { contentType, contentLength: size },
    UPLOAD_LINK_SECONDS,
  );
  return {
    key,
    url,
    method: 'PUT' as const,
    headers: { 'content-type': contentType },
    expiresInSeconds: UPLOAD_LINK_SECONDS,
  };
};
