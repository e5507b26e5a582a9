import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

/**
 * A short-lived GET URL for an object; of `versionId` when given, so a later upload to the same
 * key does not change what it shows.
 */
export const presignGet = (
  s3: S3Client,
  bucket: string,
  key: string,
  expiresIn: number,
  versionId?: string,
): Promise<string> =>
  getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: key, VersionId: versionId }), { expiresIn });

/**
 * A short-lived PUT URL for one key that takes exactly one body: its type and length are signed
 * (they are not by default), so S3 refuses a PUT with any other, and the size is decided here.
 */
export const presignPut = (
  s3: S3Client,
  bucket: string,
  key: string,
  body: { contentType: string; contentLength: number },
  expiresIn: number,
): Promise<string> =>
  getSignedUrl(
    s3,
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      ContentType: body.contentType,
      ContentLength: body.contentLength,
    }),
    { expiresIn, signableHeaders: new Set(['content-type', 'content-length']) },
  );
