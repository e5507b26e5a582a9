import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalidArgument, S3Error } from './s3Errors.js';
import { elements, xmlDocument } from './s3Xml.js';

/** A request taken apart: bucket and key decoded from the path, the query, the headers. */
export interface S3Request {
  method: string;
  bucket?: string;
  key?: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  raw: IncomingMessage;
  requestId: string;
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const decodePath = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new S3Error(400, 'InvalidURI', "Couldn't parse the specified URI (malformed percent-encoding).");
  }
};

/**
 * Reads the path-style address `/{bucket}/{key}`. The key is percent-decoded once, as S3 does
 * (`+` stays a plus); malformed encoding or a bucket name S3 would not allow is a 400.
 */
export const parseRequest = (req: IncomingMessage): S3Request => {
  const url = req.url ?? '/';
  if (!url.startsWith('/')) throw new S3Error(400, 'InvalidURI', "Couldn't parse the specified URI.");
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const query = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1));
  const slash = path.indexOf('/', 1);
  const bucketPart = slash === -1 ? path.slice(1) : path.slice(1, slash);
  const keyPart = slash === -1 ? '' : path.slice(slash + 1);
  const bucket = bucketPart === '' ? undefined : decodePath(bucketPart);
  if (bucket !== undefined && !BUCKET.test(bucket)) {
    throw new S3Error(400, 'InvalidBucketName', 'The specified bucket is not valid.', { bucket });
  }
  const key = keyPart === '' ? undefined : decodePath(keyPart);
  return {
    method: req.method ?? 'GET',
    ...(bucket !== undefined && { bucket }),
    ...(key !== undefined && { key }),
    query,
    headers: req.headers,
    raw: req,
    requestId: randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase(),
  };
};

/** A header's single value (the first, when repeated). */
export const header = (req: S3Request, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The user metadata (`x-amz-meta-*`) of a request. */
export const userMetadata = (req: S3Request): Record<string, string> => {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith('x-amz-meta-') && value !== undefined) metadata[name.slice(11)] = String(value);
  }
  if (Buffer.byteLength(JSON.stringify(metadata)) > 2048)
    throw new S3Error(
      400,
      'MetadataTooLarge',
      'Your metadata headers exceed the maximum allowed metadata size (2 KB).',
    );
  return metadata;
};

/** Content-Length as a number, undefined when absent; a malformed one is a 400. */
export const contentLength = (req: S3Request): number | undefined => {
  const value = header(req, 'x-amz-decoded-content-length') ?? header(req, 'content-length');
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value)) throw invalidArgument('The Content-Length header is not a number.');
  return Number(value);
};

/** Reads a small request body (an XML document), refusing more than `max` bytes. */
export const readSmallBody = async (req: S3Request, max = 1024 * 1024): Promise<string> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw) {
    size += (chunk as Buffer).length;
    if (size > max) throw new S3Error(400, 'MaxMessageLengthExceeded', 'Your request was too big.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/** Sends an XML answer. */
export const sendXml = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

/** Sends S3's XML error body for an error; a request body not read is not waited for. */
export const sendError = (res: ServerResponse, error: S3Error, requestId: string) => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = xmlDocument(
    'Error',
    elements({
      Code: error.code,
      Message: error.message,
      Key: error.resource?.key,
      BucketName: error.resource?.bucket,
      RequestId: requestId,
    }),
  ).replace(' xmlns="http://s3.amazonaws.com/doc/2006-03-01/"', '');
  res.setHeader('x-amz-request-id', requestId);
  // A refused upload is not read: close the connection rather than take in its body.
  if (!res.req.complete) res.setHeader('connection', 'close');
  if (res.req.method === 'HEAD') {
    res.writeHead(error.status);
    res.end();
    return;
  }
  sendXml(res, error.status, body);
};
