import { createHash } from 'node:crypto';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';

/**
 * True when the bucket already holds exactly these bytes at `key`: a single-part upload's ETag is
 * the MD5 of its content (the local S3, and AWS with S3-managed encryption as Docket's bucket
 * uses). It lets `docket upload` see that a PUT whose answer was lost (the stack killed mid-reply)
 * did store the file, and skip a file already uploaded instead of making a second workflow.
 */
export const holdsSameContent = async (
  s3: S3Client,
  bucket: string,
  key: string,
  body: Uint8Array,
): Promise<boolean> => {
  const md5 = `"${createHash('md5').update(body).digest('hex')}"`;
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return head.ETag === md5;
  } catch {
    return false;
  }
};
