import { Transform, type TransformCallback } from 'node:stream';
import { S3Error } from './s3Errors.js';

const MAX_LINE = 4096;
const malformed = (what: string) =>
  new S3Error(400, 'InvalidRequest', `Malformed aws-chunked body: ${what}.`);

/**
 * Decodes an `aws-chunked` body (what the AWS SDK and CLI send for streamed uploads with a
 * checksum trailer, and for SigV4 streaming signatures): `<hex size>[;ext]\r\n<bytes>\r\n` chunks
 * up to a zero-size one, then trailer lines and an empty line. Signatures and trailing checksums
 * are not verified; a malformed frame is a 400, never a crash.
 */
export class AwsChunkedDecoder extends Transform {
  private state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  private line = Buffer.alloc(0);
  private remaining = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    try {
      this.consume(chunk);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback) {
    callback(
      this.state === 'done' || (this.state === 'trailer' && this.line.length === 0)
        ? null
        : malformed('body ended inside a chunk'),
    );
  }

  private consume(input: Buffer) {
    let chunk = input;
    while (chunk.length > 0) {
      if (this.state === 'data') {
        const take = Math.min(this.remaining, chunk.length);
        this.push(chunk.subarray(0, take));
        this.remaining -= take;
        chunk = chunk.subarray(take);
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      if (this.state === 'done') return;
      const newline = chunk.indexOf(10);
      const part = newline === -1 ? chunk : chunk.subarray(0, newline + 1);
      this.line = Buffer.concat([this.line, part]);
      if (this.line.length > MAX_LINE) throw malformed('header line too long');
      chunk = chunk.subarray(part.length);
      if (newline === -1) return;
      const text = this.line.toString('latin1').replace(/\r?\n$/, '');
      this.line = Buffer.alloc(0);
      this.onLine(text);
    }
  }

  private onLine(text: string) {
    if (this.state === 'data-end') {
      if (text !== '') throw malformed('chunk not followed by CRLF');
      this.state = 'size';
      return;
    }
    if (this.state === 'trailer') {
      if (text === '') this.state = 'done';
      return;
    }
    const size = text.split(';')[0]?.trim() ?? '';
    if (!/^[0-9a-fA-F]{1,12}$/.test(size)) throw malformed(`bad chunk size "${size.slice(0, 20)}"`);
    this.remaining = Number.parseInt(size, 16);
    this.state = this.remaining === 0 ? 'trailer' : 'data';
  }
}

/** True when a request body is aws-chunked framed. */
export const isAwsChunked = (headers: Record<string, string | string[] | undefined>): boolean => {
  const encoding = String(headers['content-encoding'] ?? '');
  const sha = String(headers['x-amz-content-sha256'] ?? '');
  return encoding.split(',').some((e) => e.trim() === 'aws-chunked') || sha.startsWith('STREAMING-');
};
