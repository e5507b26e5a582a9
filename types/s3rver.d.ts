// Minimal declarations for s3rver 3 (its own @types package targets an older API).
declare module 's3rver' {
  import type { EventEmitter } from 'node:events';
  import type { AddressInfo } from 'node:net';
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }
  /** One S3 notification record as s3rver emits it. */
  export interface S3rverEventRecord {
    eventName: string;
    eventTime: string;
    s3: {
      bucket: { name: string };
      object: { key: string; size?: number; eTag?: string; sequencer: string };
    };
  }
  export default class S3rver extends EventEmitter {
    constructor(options?: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    on(event: 'event', listener: (event: { Records: S3rverEventRecord[] }) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
