import { createHash } from 'node:crypto';

/** A message attribute as stored: the binary value base64-encoded, as the JSON protocol carries it. */
export interface StoredAttribute {
  DataType: string;
  StringValue?: string;
  BinaryValue?: string;
}

/** Hex MD5 of a message body's UTF-8 bytes: what the SDK recomputes and compares. */
export const md5OfBody = (body: string): string => createHash('md5').update(body, 'utf8').digest('hex');

const lengthPrefixed = (bytes: Buffer): Buffer[] => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return [length, bytes];
};

/**
 * Hex MD5 of message attributes, by AWS's documented algorithm: names sorted, and for each the
 * name, the data type and the value, each as a 4-byte big-endian length and its bytes, with a
 * transport byte (1 string, 2 binary) before the value. The SDK does not check it, but a client
 * in another language does, so it must be right.
 */
export const md5OfAttributes = (attributes: Record<string, StoredAttribute>): string => {
  const hash = createHash('md5');
  for (const name of Object.keys(attributes).sort()) {
    const attribute = attributes[name] as StoredAttribute;
    const parts = [
      ...lengthPrefixed(Buffer.from(name, 'utf8')),
      ...lengthPrefixed(Buffer.from(attribute.DataType, 'utf8')),
    ];
    if (attribute.BinaryValue !== undefined)
      parts.push(Buffer.from([2]), ...lengthPrefixed(Buffer.from(attribute.BinaryValue, 'base64')));
    else parts.push(Buffer.from([1]), ...lengthPrefixed(Buffer.from(attribute.StringValue ?? '', 'utf8')));
    for (const part of parts) hash.update(part);
  }
  return hash.digest('hex');
};
