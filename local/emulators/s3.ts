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
    configureBuckets: [{ name: bucket }],
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
