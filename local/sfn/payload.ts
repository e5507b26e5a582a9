/** Largest execution input and task output Step Functions accepts (256 KiB). */
export const MAX_PAYLOAD_BYTES = 262_144;

/** Parses JSON text a caller sent, refusing more than 256 KiB; `fail` makes the AWS error. */
export const parsePayload = (text: string, fail: (detail: string) => Error): unknown => {
  if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) throw fail('larger than 256 KiB');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw fail(error instanceof Error ? error.message : String(error));
  }
};
