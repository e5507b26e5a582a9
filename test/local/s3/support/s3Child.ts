/** Runs the local S3 in a process of its own (so a test can `kill -9` it); prints its port. */
import { startLocalS3 } from '../../../../local/emulators/s3.js';

const [directory = '', bucket = 'docket-test', maxMb] = process.argv.slice(2);
const s3 = await startLocalS3({
  directory,
  bucket,
  ...(maxMb && { maxUploadBytes: Number(maxMb) * 1024 * 1024 }),
});
process.stdout.write(`${JSON.stringify({ port: s3.port, damaged: s3.damaged.length })}\n`);
