import { compareUtf8, type ObjectRecord, type ObjectStore } from './objectStore.js';
import { invalidArgument } from './s3Errors.js';
import { elements, xmlDocument, xmlText } from './s3Xml.js';

/** What a listing request asks for. */
export interface ListQuery {
  prefix: string;
  delimiter: string;
  maxKeys: number;
  /** List keys after this one; when `afterIsPrefix`, also skip every key under it. */
  after: string;
  afterIsPrefix: boolean;
}

/** One page of a listing. */
export interface ListPage {
  contents: ObjectRecord[];
  commonPrefixes: string[];
  truncated: boolean;
  /** Where the next page starts, when truncated. */
  next?: { after: string; afterIsPrefix: boolean };
}

/** Lists keys in S3's order with prefix, delimiter (common prefixes) and a page size. */
export const listPage = (store: ObjectStore, bucket: string, query: ListQuery): ListPage => {
  const page: ListPage = { contents: [], commonPrefixes: [], truncated: false };
  let lastPrefix = query.afterIsPrefix ? query.after : undefined;
  let last: ListPage['next'];
  for (const key of store.keysAfter(bucket, query.after)) {
    if (!key.startsWith(query.prefix)) {
      // Keys under a prefix are one run in byte order: past it, nothing more can match.
      if (compareUtf8(key, query.prefix) > 0) break;
      continue;
    }
    if (lastPrefix !== undefined && key.startsWith(lastPrefix)) continue;
    const rest = key.slice(query.prefix.length);
    const cut = query.delimiter ? rest.indexOf(query.delimiter) : -1;
    if (page.contents.length + page.commonPrefixes.length >= query.maxKeys) {
      page.truncated = true;
      page.next = last;
      break;
    }
    if (cut >= 0) {
      const common = query.prefix + rest.slice(0, cut + query.delimiter.length);
      page.commonPrefixes.push(common);
      lastPrefix = common;
      last = { after: common, afterIsPrefix: true };
    } else {
      page.contents.push(store.get(bucket, key));
      last = { after: key, afterIsPrefix: false };
    }
  }
  return page;
};

/** An opaque continuation token for the next page. */
export const encodeToken = (next: NonNullable<ListPage['next']>): string =>
  Buffer.from(JSON.stringify([next.after, next.afterIsPrefix])).toString('base64url');

/** Reads a continuation token this server gave out; anything else is a 400. */
export const decodeToken = (token: string): { after: string; afterIsPrefix: boolean } => {
  try {
    const [after, afterIsPrefix] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[];
    if (typeof after === 'string' && typeof afterIsPrefix === 'boolean') return { after, afterIsPrefix };
  } catch {
    // fall through to the 400
  }
  throw invalidArgument('The continuation token provided is incorrect.');
};

/** `max-keys`: 0-1000, 1000 when absent (S3 never returns more per page). */
export const parseMaxKeys = (value: string | null): number => {
  if (value === null || value === '') return 1000;
  if (!/^\d{1,9}$/.test(value))
    throw invalidArgument('Provided max-keys not an integer or within integer range.');
  return Math.min(Number(value), 1000);
};

const encoder = (url: boolean) => (text: string) =>
  url ? encodeURIComponent(text).replace(/%2F/g, '/') : text;

/** The XML of a listing page, ListObjectsV2 or ListObjects (v1). */
export const listXml = (
  bucket: string,
  query: ListQuery,
  page: ListPage,
  options: { v2: boolean; urlEncoding: boolean; echo: Record<string, string | undefined> },
): string => {
  const enc = encoder(options.urlEncoding);
  const contents = page.contents
    .map(
      (o) =>
        `<Contents>${elements({ Key: enc(o.key), LastModified: o.lastModified, ETag: o.etag, Size: o.size, StorageClass: 'STANDARD' })}</Contents>`,
    )
    .join('');
  const prefixes = page.commonPrefixes
    .map((p) => `<CommonPrefixes><Prefix>${xmlText(enc(p))}</Prefix></CommonPrefixes>`)
    .join('');
  const head = elements({
    Name: bucket,
    Prefix: enc(query.prefix),
    ...(options.v2 ? { KeyCount: page.contents.length + page.commonPrefixes.length } : {}),
    MaxKeys: query.maxKeys,
    Delimiter: query.delimiter ? enc(query.delimiter) : undefined,
    IsTruncated: page.truncated,
    EncodingType: options.urlEncoding ? 'url' : undefined,
    ...Object.fromEntries(Object.entries(options.echo).map(([k, v]) => [k, v && enc(v)])),
  });
  const next =
    page.truncated && page.next
      ? options.v2
        ? elements({ NextContinuationToken: encodeToken(page.next) })
        : elements({ NextMarker: enc(page.next.after) })
      : '';
  return xmlDocument('ListBucketResult', head + contents + prefixes + next);
};

/**
 * The XML of ListObjectVersions for this unversioned bucket, as S3 answers for a bucket whose
 * versioning was never enabled: each object once, as its only version, `VersionId` "null" and
 * latest. Pages by `key-marker` (the last key of the page before).
 */
export const versionsXml = (bucket: string, query: ListQuery, page: ListPage): string => {
  const versions = page.contents
    .map(
      (o) =>
        `<Version>${elements({ Key: o.key, VersionId: 'null', IsLatest: true, LastModified: o.lastModified, ETag: o.etag, Size: o.size, StorageClass: 'STANDARD' })}</Version>`,
    )
    .join('');
  const head = elements({
    Name: bucket,
    Prefix: query.prefix,
    KeyMarker: query.after,
    MaxKeys: query.maxKeys,
    IsTruncated: page.truncated,
    ...(page.truncated && page.next ? { NextKeyMarker: page.next.after, NextVersionIdMarker: 'null' } : {}),
  });
  return xmlDocument('ListVersionsResult', head + versions);
};
