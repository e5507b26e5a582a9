import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenLocally } from '../httpFront.js';
import { decodeToken, listPage, listXml, parseMaxKeys, versionsXml } from './listing.js';
import type { MultipartUploads } from './multipart.js';
import { deleteObject, getObject, type ObjectContext, postObject, putObject } from './objectRoutes.js';
import type { ObjectRecord, ObjectStore } from './objectStore.js';
import { header, parseRequest, readSmallBody, type S3Request, sendError, sendXml } from './request.js';
import { noSuchBucket, S3Error } from './s3Errors.js';
import { elements, readGroups, xmlDocument } from './s3Xml.js';

/** How the S3 front is set up. */
export interface S3FrontOptions {
  store: ObjectStore;
  uploads: MultipartUploads;
  maxBytes: number;
  /** Throws an S3Error (400) for a key the door refuses. */
  checkKey: (key: string) => void;
  /** Origins whose pages may read objects (GET/HEAD) across origins. */
  corsOrigin: (origin: string) => boolean;
  onCreated: (record: ObjectRecord, reason: string) => void;
  /** Called with an error the front did not expect (it answers 500 and carries on). */
  onInternalError: (error: unknown) => void;
}

const notAllowed = () =>
  new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');

const listBuckets = (store: ObjectStore, res: ServerResponse) => {
  const buckets = store
    .buckets()
    .map((name) => `<Bucket>${elements({ Name: name, CreationDate: new Date(0).toISOString() })}</Bucket>`)
    .join('');
  sendXml(
    res,
    200,
    xmlDocument(
      'ListAllMyBucketsResult',
      `<Owner>${elements({ ID: 'local', DisplayName: 'local' })}</Owner><Buckets>${buckets}</Buckets>`,
    ),
  );
};

const listObjects = (store: ObjectStore, req: S3Request, res: ServerResponse, bucket: string) => {
  const v2 = req.query.get('list-type') === '2';
  const delimiter = req.query.get('delimiter') ?? '';
  const token = req.query.get('continuation-token');
  const startAfter = req.query.get(v2 ? 'start-after' : 'marker') ?? '';
  const cursor =
    token !== null
      ? decodeToken(token)
      : { after: startAfter, afterIsPrefix: delimiter !== '' && startAfter.endsWith(delimiter) };
  const query = {
    prefix: req.query.get('prefix') ?? '',
    delimiter,
    maxKeys: parseMaxKeys(req.query.get('max-keys')),
    ...cursor,
  };
  const page = listPage(store, bucket, query);
  const echo = v2
    ? { ...(token !== null && { ContinuationToken: token }), ...(startAfter && { StartAfter: startAfter }) }
    : { Marker: startAfter };
  sendXml(
    res,
    200,
    listXml(bucket, query, page, { v2, urlEncoding: req.query.get('encoding-type') === 'url', echo }),
  );
};

const listVersions = (store: ObjectStore, req: S3Request, res: ServerResponse, bucket: string) => {
  const query = {
    prefix: req.query.get('prefix') ?? '',
    delimiter: '',
    maxKeys: parseMaxKeys(req.query.get('max-keys')),
    after: req.query.get('key-marker') ?? '',
    afterIsPrefix: false,
  };
  sendXml(res, 200, versionsXml(bucket, query, listPage(store, bucket, query)));
};

const deleteObjects = async (ctx: ObjectContext, req: S3Request, res: ServerResponse, bucket: string) => {
  const keys = readGroups(await readSmallBody(req), 'Object', ['Key']).map((o) => o.Key ?? '');
  if (keys.length > 1000)
    throw new S3Error(400, 'MalformedXML', 'At most 1,000 keys can be deleted at once.');
  for (const key of keys) await ctx.store.delete(bucket, key);
  sendXml(
    res,
    200,
    xmlDocument('DeleteResult', keys.map((k) => `<Deleted>${elements({ Key: k })}</Deleted>`).join('')),
  );
};

const bucketRoute = async (options: S3FrontOptions, req: S3Request, res: ServerResponse, bucket: string) => {
  const { store } = options;
  if (req.method === 'PUT') {
    await store.createBucket(bucket);
    res.writeHead(200, { location: `/${bucket}` }).end();
    return;
  }
  if (!store.hasBucket(bucket)) throw noSuchBucket(bucket);
  if (req.method === 'HEAD') return void res.writeHead(200).end();
  if (req.method === 'GET') {
    if (req.query.has('location')) return sendXml(res, 200, xmlDocument('LocationConstraint', ''));
    if (req.query.has('versioning')) return sendXml(res, 200, xmlDocument('VersioningConfiguration', ''));
    if (req.query.has('versions')) return listVersions(store, req, res, bucket);
    if (req.query.has('uploads'))
      return sendXml(
        res,
        200,
        xmlDocument('ListMultipartUploadsResult', elements({ Bucket: bucket, IsTruncated: false })),
      );
    return listObjects(store, req, res, bucket);
  }
  if (req.method === 'POST' && req.query.has('delete'))
    return deleteObjects({ ...options }, req, res, bucket);
  throw notAllowed();
};

/** Answers a CORS preflight, or adds the CORS headers to a read from an allowed origin. */
const cors = (options: S3FrontOptions, req: S3Request, res: ServerResponse): boolean => {
  const origin = header(req, 'origin');
  const allowed = origin !== undefined && options.corsOrigin(origin);
  if (req.method === 'OPTIONS') {
    const method = header(req, 'access-control-request-method') ?? '';
    if (!allowed || !['GET', 'HEAD'].includes(method))
      throw new S3Error(403, 'AccessForbidden', 'CORSResponse: This CORS request is not allowed.');
    res.writeHead(200, {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'GET, HEAD',
      'access-control-allow-headers': header(req, 'access-control-request-headers') ?? '*',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
    res.end();
    return true;
  }
  if (allowed && (req.method === 'GET' || req.method === 'HEAD')) {
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('access-control-expose-headers', 'Content-Length, Content-Range, Accept-Ranges, ETag');
    res.setHeader('vary', 'Origin');
  }
  return false;
};

/** One request: parsed, routed, and answered; every failure becomes an S3 error body. */
const handle = async (options: S3FrontOptions, req: IncomingMessage, res: ServerResponse) => {
  let requestId = '';
  try {
    const request = parseRequest(req);
    requestId = request.requestId;
    res.setHeader('x-amz-request-id', requestId);
    if (cors(options, request, res)) return;
    const { bucket, key } = request;
    if (bucket === undefined) {
      if (request.method !== 'GET') throw notAllowed();
      return listBuckets(options.store, res);
    }
    if (key === undefined) return await bucketRoute(options, request, res, bucket);
    if (!options.store.hasBucket(bucket)) throw noSuchBucket(bucket);
    const ctx: ObjectContext = options;
    switch (request.method) {
      case 'PUT':
        return await putObject(ctx, request, res, bucket, key);
      case 'GET':
      case 'HEAD':
        return await getObject(ctx, request, res, bucket, key);
      case 'DELETE':
        return await deleteObject(ctx, request, res, bucket, key);
      case 'POST':
        return await postObject(ctx, request, res, bucket, key);
      default:
        throw notAllowed();
    }
  } catch (error) {
    if (error instanceof S3Error) return sendError(res, error, requestId);
    // A client that went away mid-body is no server fault.
    if (
      (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' ||
      (error as NodeJS.ErrnoException).code === 'ECONNRESET'
    ) {
      res.destroy();
      return;
    }
    options.onInternalError(error);
    sendError(
      res,
      new S3Error(500, 'InternalError', 'We encountered an internal error. Please try again.'),
      requestId,
    );
  }
};

/**
 * The local S3 front: an HTTP server speaking the part of the S3 REST API that Docket, the AWS
 * SDK v3 and the AWS CLI use (objects, copy, multipart, listings v1/v2 with pagination, bucket
 * create/head/location, CORS for the console). Headers are checked before a body is read
 * (`Expect: 100-continue` is answered only then); bodies stream to disk.
 */
export const startS3Front = async (options: S3FrontOptions & { port?: number }) => {
  const server: Server = createServer((req, res) => void handle(options, req, res));
  server.on('checkContinue', (req, res) => void handle(options, req, res));
  return listenLocally(server, options.port ?? 0);
};
