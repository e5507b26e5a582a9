import { open } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { AwsChunkedDecoder, isAwsChunked } from './awsChunked.js';
import { writeBodyToTemp } from './limitedBody.js';
import type { MultipartUploads } from './multipart.js';
import type { ObjectRecord, ObjectStore } from './objectStore.js';
import { contentLength, header, readSmallBody, type S3Request, sendXml, userMetadata } from './request.js';
import { entityTooLarge, incompleteBody, invalidArgument, noSuchKey, S3Error } from './s3Errors.js';
import { elements, readGroups, xmlDocument } from './s3Xml.js';

/** What object routes need: the store, the size bound, the door and the event hook. */
export interface ObjectContext {
  store: ObjectStore;
  uploads: MultipartUploads;
  maxBytes: number;
  /** Refuses a key the door does not take (throws a 400). */
  checkKey: (key: string) => void;
  onCreated: (record: ObjectRecord, reason: string) => void;
}

/** The body of a write, decoded from aws-chunked framing when so sent. */
const bodyOf = (req: S3Request, res: ServerResponse, maxBytes: number): NodeJS.ReadableStream => {
  const length = contentLength(req);
  if (length !== undefined && length > maxBytes) throw entityTooLarge(maxBytes);
  // Only now, with the headers accepted, is the client told to send the body.
  if (String(header(req, 'expect')).toLowerCase() === '100-continue') res.writeContinue();
  if (!isAwsChunked(req.headers)) return req.raw;
  // pipe() does not pass on a failed request: the decoder must fail with it, not wait forever.
  const decoder = new AwsChunkedDecoder();
  req.raw.on('error', (error) => decoder.destroy(error));
  return req.raw.pipe(decoder);
};

/** Streams a write's body to a temp file and checks it against Content-Length and Content-MD5. */
const receive = async (ctx: ObjectContext, req: S3Request, res: ServerResponse) => {
  const expected = contentLength(req);
  const written = await writeBodyToTemp(bodyOf(req, res, ctx.maxBytes), ctx.store.layout.tmp, ctx.maxBytes);
  if (expected !== undefined && written.size !== expected) throw incompleteBody();
  const md5 = header(req, 'content-md5');
  if (md5 !== undefined && md5 !== written.md5.toString('base64'))
    throw new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
  return written;
};

const fieldsOf = (req: S3Request) => ({
  contentType: header(req, 'content-type'),
  metadata: userMetadata(req),
});

/** PUT object, copy, or upload part. */
export const putObject = async (
  ctx: ObjectContext,
  req: S3Request,
  res: ServerResponse,
  bucket: string,
  key: string,
) => {
  const uploadId = req.query.get('uploadId');
  if (uploadId !== null) {
    const etag = await ctx.uploads.putPart(bucket, key, uploadId, Number(req.query.get('partNumber')), () =>
      bodyOf(req, res, ctx.maxBytes),
    );
    res.writeHead(200, { etag }).end();
    return;
  }
  ctx.checkKey(key);
  const copySource = header(req, 'x-amz-copy-source');
  if (copySource !== undefined) return copyObject(ctx, req, res, bucket, key, copySource);
  const written = await receive(ctx, req, res);
  const record = await ctx.store.commit(
    bucket,
    key,
    { path: written.path, size: written.size, etag: `"${written.md5.toString('hex')}"` },
    fieldsOf(req),
  );
  ctx.onCreated(record, 'PutObject');
  res.writeHead(200, { etag: record.etag }).end();
};

const copyObject = async (
  ctx: ObjectContext,
  req: S3Request,
  res: ServerResponse,
  bucket: string,
  key: string,
  copySource: string,
) => {
  const [path = ''] = copySource.split('?');
  let decoded: string;
  try {
    decoded = decodeURIComponent(path).replace(/^\//, '');
  } catch {
    throw invalidArgument('Copy Source must mention the source bucket and key: sourcebucket/sourcekey.');
  }
  const slash = decoded.indexOf('/');
  if (slash < 1)
    throw invalidArgument('Copy Source must mention the source bucket and key: sourcebucket/sourcekey.');
  const sourceBucket = decoded.slice(0, slash);
  if (!ctx.store.hasBucket(sourceBucket)) throw noSuchKey(sourceBucket, decoded.slice(slash + 1));
  const source = ctx.store.get(sourceBucket, decoded.slice(slash + 1));
  const replace = header(req, 'x-amz-metadata-directive') === 'REPLACE';
  const fields = replace ? fieldsOf(req) : { contentType: source.contentType, metadata: source.metadata };
  const record = await ctx.store.copy(source, bucket, key, fields);
  ctx.onCreated(record, 'CopyObject');
  sendXml(
    res,
    200,
    xmlDocument('CopyObjectResult', elements({ LastModified: record.lastModified, ETag: record.etag })),
  );
};

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` against a size; undefined for no (or an unusable) range. */
const byteRange = (value: string | undefined, size: number): { start: number; end: number } | undefined => {
  const match = value === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [first, last] = [match[1] as string, match[2] as string];
  if (first === '') {
    const suffix = Math.min(Number(last), size);
    return suffix === 0 ? undefined : { start: size - suffix, end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start)
    throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable.');
  return { start, end };
};

const OVERRIDES = [
  'content-type',
  'content-disposition',
  'content-language',
  'expires',
  'cache-control',
  'content-encoding',
];

/** GET or HEAD object, with one byte range and the `response-*` overrides presigned links use. */
export const getObject = async (
  ctx: ObjectContext,
  req: S3Request,
  res: ServerResponse,
  bucket: string,
  key: string,
) => {
  const record = ctx.store.get(bucket, key);
  const range = byteRange(header(req, 'range'), record.size);
  // Opened before answering: an overwrite meanwhile removes the name, not the open file.
  const handle =
    req.method === 'HEAD' || record.size === 0 ? undefined : await open(ctx.store.blobPath(record), 'r');
  const headers: Record<string, string | number> = {
    etag: record.etag,
    'last-modified': new Date(record.lastModified).toUTCString(),
    'accept-ranges': 'bytes',
    'content-type': record.contentType ?? 'binary/octet-stream',
    'content-length': range ? range.end - range.start + 1 : record.size,
    ...(range && { 'content-range': `bytes ${range.start}-${range.end}/${record.size}` }),
  };
  for (const [name, value] of Object.entries(record.metadata)) headers[`x-amz-meta-${name}`] = value;
  for (const name of OVERRIDES) {
    const value = req.query.get(`response-${name}`);
    if (value !== null) headers[name] = value;
  }
  res.writeHead(range ? 206 : 200, headers);
  if (!handle) {
    res.end();
    return;
  }
  await pipeline(handle.createReadStream(range ?? {}), res);
};

/** DELETE object (204 whether or not it existed) or abort a multipart upload. */
export const deleteObject = async (
  ctx: ObjectContext,
  req: S3Request,
  res: ServerResponse,
  bucket: string,
  key: string,
) => {
  const uploadId = req.query.get('uploadId');
  if (uploadId !== null) await ctx.uploads.abort(bucket, key, uploadId);
  else await ctx.store.delete(bucket, key);
  res.writeHead(204).end();
};

/** POST ?uploads (start a multipart upload) or ?uploadId (complete it). */
export const postObject = async (
  ctx: ObjectContext,
  req: S3Request,
  res: ServerResponse,
  bucket: string,
  key: string,
) => {
  if (req.query.has('uploads')) {
    ctx.checkKey(key);
    const uploadId = await ctx.uploads.create(bucket, key, fieldsOf(req));
    sendXml(
      res,
      200,
      xmlDocument(
        'InitiateMultipartUploadResult',
        elements({ Bucket: bucket, Key: key, UploadId: uploadId }),
      ),
    );
    return;
  }
  const uploadId = req.query.get('uploadId');
  if (uploadId === null)
    throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  ctx.checkKey(key);
  const parts = readGroups(await readSmallBody(req), 'Part', ['PartNumber', 'ETag']).map((p) => ({
    partNumber: Number(p.PartNumber),
    etag: p.ETag ?? '',
  }));
  const record = await ctx.uploads.complete(bucket, key, uploadId, parts);
  ctx.onCreated(record, 'CompleteMultipartUpload');
  sendXml(
    res,
    200,
    xmlDocument('CompleteMultipartUploadResult', elements({ Bucket: bucket, Key: key, ETag: record.etag })),
  );
};
