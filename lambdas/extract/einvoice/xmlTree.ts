import { XMLParser } from 'fast-xml-parser';
import { EInvoiceUnreadable } from '../errors.js';

/**
 * The e-invoice XML as a tree of plain objects, read safely. The XML comes from outside (a
 * supplier, or anyone who can upload), so before parsing: no DOCTYPE (CII and UBL are defined by
 * XML Schema and never need one; a DOCTYPE is how entity-expansion bombs and external references
 * get in), a size bound and a nesting bound. Values stay strings: amounts must stay exact.
 */

/** Largest XML read, in characters: a real e-invoice is tens of kilobytes. */
export const MAX_XML_CHARS = 5_000_000;
/** Deepest element nesting accepted: CII and UBL documents nest about 10 levels. */
export const MAX_XML_DEPTH = 48;

/** An element: child elements by local name (namespace prefixes removed), attributes as `@name`. */
export type XmlNode = { [name: string]: XmlChild | XmlChild[] | undefined };
/** A child: an element, or the text of an element without attributes or children. */
export type XmlChild = XmlNode | string;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  // Character references (`M&#xFC;ller`, `&#10;` between the lines of a party name) are XML, not
  // HTML, but fast-xml-parser decodes them only with this option; without it a name stays
  // "M&#xFC;ller GmbH" and matches neither the printed page nor the vendor master. It also decodes
  // HTML's named entities (`&nbsp;`), which XML without a DTD cannot define: harmless leniency.
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // The parser refuses an element when more than this many are already open around it, so an
  // element at depth MAX_XML_DEPTH has MAX_XML_DEPTH - 1 open around it. (An empty `<x/>` one
  // level deeper passes: it opens nothing, so it cannot lead any deeper.)
  maxNestedTags: MAX_XML_DEPTH - 1,
});

/** Parses e-invoice XML into a tree; throws `EInvoiceUnreadable` for anything unsafe or broken. */
export const parseXmlTree = (xml: string): XmlNode => {
  if (xml.length > MAX_XML_CHARS) {
    throw new EInvoiceUnreadable(`it is ${xml.length} characters, over the ${MAX_XML_CHARS} bound`);
  }
  const text = xml.replace(/^\uFEFF/, '');
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    throw new EInvoiceUnreadable('it declares a DOCTYPE or entities, which e-invoices never need');
  }
  let tree: unknown;
  try {
    tree = parser.parse(text, true);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new EInvoiceUnreadable(
      /nested/i.test(message)
        ? `elements nest deeper than ${MAX_XML_DEPTH} levels`
        : `it is not well-formed XML (${message})`,
      { cause: error },
    );
  }
  if (!tree || typeof tree !== 'object') throw new EInvoiceUnreadable('it has no root element');
  // The parser reads `<Invoice/><CrossIndustryInvoice/>` as two roots where XML allows one: which
  // of two invoices in one file is the invoice would be up to whichever reader looks first.
  const roots = Object.values(tree as XmlNode).reduce<number>(
    (n, value) => n + (Array.isArray(value) ? value.length : 1),
    0,
  );
  if (roots !== 1) {
    throw new EInvoiceUnreadable(`it has ${roots} root elements, where well-formed XML has exactly one`);
  }
  return tree as XmlNode;
};

/** The child elements named `name`, in order (none: an empty list). */
export const children = (node: XmlChild | undefined, name: string): XmlChild[] => {
  if (!node || typeof node === 'string') return [];
  const value = node[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
};

/** The first child element named by `path` (a `/`-separated list of local names), if any. */
export const child = (node: XmlChild | undefined, path: string): XmlChild | undefined => {
  let current: XmlChild | undefined = node;
  for (const name of path.split('/')) {
    current = children(current, name)[0];
    if (current === undefined) return undefined;
  }
  return current;
};

/** Every element reached by `path`, following every repetition on the way. */
export const all = (node: XmlChild | undefined, path: string): XmlChild[] => {
  let level: XmlChild[] = node === undefined ? [] : [node];
  for (const name of path.split('/')) level = level.flatMap((n) => children(n, name));
  return level;
};

/** An element's text (trimmed), or undefined when it has none. */
export const textOf = (node: XmlChild | undefined): string | undefined => {
  if (node === undefined) return undefined;
  const value = typeof node === 'string' ? node : node['#text'];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
};

/** An attribute of an element. */
export const attributeOf = (node: XmlChild | undefined, name: string): string | undefined => {
  if (!node || typeof node === 'string') return undefined;
  const value = node[`@${name}`];
  return typeof value === 'string' ? value : undefined;
};

/** The text at `path` below `node`. */
export const textAt = (node: XmlChild | undefined, path: string): string | undefined =>
  textOf(child(node, path));
