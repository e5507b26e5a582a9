import { mkdir } from 'node:fs/promises';
import S3rver, { type S3rverEventRecord } from 's3rver';

/** A running s3rver with one bucket. */
export interface LocalS3 {
  endpoint: string;
  port: number;
  bucket: string;
  /** Calls `listener` for every object created (PUT, POST, copy) in the bucket. */
  onObjectCreated: (listener: (record: S3rverEventRecord) => void) => void;
  close: () => Promise<void>;
}

/**
 * Lets the review console (served by the local API on another port of 127.0.0.1 or localhost)
 * fetch a presigned PDF link: pdf.js reads the bytes with fetch, which needs CORS. Read-only.
 */
const CONSOLE_CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>http://127.0.0.1:*</AllowedOrigin>
    <AllowedOrigin>http://localhost:*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>Content-Length</ExposeHeader>
    <ExposeHeader>Content-Range</ExposeHeader>
    <ExposeHeader>Accept-Ranges</ExposeHeader>
    <MaxAgeSeconds>600</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/**
 * Starts s3rver on 127.0.0.1 with its files under `directory` and the bucket created. Objects
 * survive a restart when the same directory is used.
 */
export const startLocalS3 = async (options: {
  directory: string;
  port?: number;
  bucket?: string;
}): Promise<LocalS3> => {
  const bucket = options.bucket ?? 'docket-local';
  await mkdir(options.directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory: options.directory,
    configureBuckets: [{ name: bucket, configs: [CONSOLE_CORS] }],
    // Path-style only: a bucket name must not be read from the Host header of 127.0.0.1.
    vhostBuckets: false,
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    port: address.port,
    bucket,
    onObjectCreated: (listener) =>
      server.on('event', (event) => {
        for (const record of event.Records) {
          if (record.eventName.startsWith('ObjectCreated:') && record.s3.bucket.name === bucket)
            listener(record);
        }
      }),
    close: () => server.close(),
  };
};
