/**
 * Errors the local S3 front answers with: S3's own codes and statuses, so the AWS SDK and CLI
 * raise the same named errors as against AWS (`NoSuchKey`, `InvalidArgument`, ...). One
 * difference is on purpose: an upload over the size bound is 413 (S3 says 400 EntityTooLarge).
 */
export class S3Error extends Error {
  override readonly name = 'S3Error';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly resource?: { key?: string; bucket?: string },
  ) {
    super(message);
  }
}

/** 404 NoSuchKey. */
export const noSuchKey = (bucket: string, key: string) =>
  new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { bucket, key });
/** 404 NoSuchBucket. */
export const noSuchBucket = (bucket: string) =>
  new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist.', { bucket });
/** 404 NoSuchUpload. */
export const noSuchUpload = () =>
  new S3Error(404, 'NoSuchUpload', 'The specified multipart upload does not exist; start it again.');
/** 413 EntityTooLarge: past the configured bound (`--max-upload-mb`). */
export const entityTooLarge = (maxBytes: number) =>
  new S3Error(
    413,
    'EntityTooLarge',
    `Your proposed upload exceeds the maximum allowed size of ${maxBytes} bytes (set by --max-upload-mb / DOCKET_MAX_UPLOAD_MB).`,
  );
/** 400 IncompleteBody: fewer bytes arrived than Content-Length announced. */
export const incompleteBody = () =>
  new S3Error(
    400,
    'IncompleteBody',
    'You did not provide the number of bytes specified by the Content-Length header.',
  );
/** 400 InvalidArgument with a message. */
export const invalidArgument = (message: string, key?: string) =>
  new S3Error(400, 'InvalidArgument', message, key === undefined ? undefined : { key });
/** 400 MalformedXML. */
export const malformedXml = () =>
  new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate.');
