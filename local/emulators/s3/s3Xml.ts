import { malformedXml } from './s3Errors.js';

/** Escapes text for an XML element (and drops what XML 1.0 cannot carry at all). */
export const xmlText = (value: string | number): string =>
  String(value)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** `<name>text</name>` for each defined field. */
export const elements = (fields: Record<string, string | number | boolean | undefined>): string =>
  Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([name, v]) => `<${name}>${xmlText(String(v))}</${name}>`)
    .join('');

/** A whole XML document with S3's namespace on its root. */
export const xmlDocument = (root: string, body: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${body}</${root}>`;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the five XML entities and character references; anything else is malformed. */
const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]+);/g, (_m, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    const entity = ENTITIES[ref];
    if (entity === undefined) throw malformedXml();
    return entity;
  });

/**
 * The texts of every `<tag>` inside each `<group>` of a small request document (the part list of
 * CompleteMultipartUpload, the keys of DeleteObjects). No DTD is accepted and no entity but the
 * five predefined ones is expanded, so entity expansion and external entities cannot apply.
 */
export const readGroups = (xml: string, group: string, tags: readonly string[]): Record<string, string>[] => {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw malformedXml();
  const groups: Record<string, string>[] = [];
  const groupPattern = new RegExp(`<${group}>([\\s\\S]*?)</${group}>`, 'g');
  for (const match of xml.matchAll(groupPattern)) {
    const fields: Record<string, string> = {};
    for (const tag of tags) {
      const value = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(match[1] ?? '');
      if (value) fields[tag] = decodeEntities(value[1] ?? '');
    }
    groups.push(fields);
  }
  return groups;
};
