import { describe, expect, it } from 'vitest';
import { MAX_XML_CHARS, MAX_XML_DEPTH, readEInvoice } from '../../../lambdas/extract/einvoice/index.js';
import { parseXmlTree } from '../../../lambdas/extract/einvoice/xmlTree.js';
import { EInvoiceUnreadable } from '../../../lambdas/extract/errors.js';
import { PermanentError } from '../../../lambdas/shared/errors.js';
import { ciiXml } from '../../fixtures/einvoices.js';

/** The error `act` throws (failing the test when it throws nothing). */
const thrownBy = (act: () => unknown): unknown => {
  try {
    act();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, nothing was thrown');
};

/** `depth` nested elements around a text. */
const nested = (depth: number) => `${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}`;

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">&lol9;</rsm:CrossIndustryInvoice>`;

const EXTERNAL_ENTITY = `<?xml version="1.0"?>
<!DOCTYPE Invoice [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&xxe;</ID></Invoice>`;

describe('hostile or broken e-invoice XML', () => {
  it.each([
    ['an entity-expansion bomb (billion laughs)', BILLION_LAUGHS],
    ['an external entity', EXTERNAL_ENTITY],
    ['a lower-case doctype after a comment', '<!-- hi --><!doctype Invoice SYSTEM "http://x/"><Invoice/>'],
  ])('refuses %s before parsing, naming the DOCTYPE', (_, xml) => {
    // Prepare: the XML above.

    // Act
    const error = thrownBy(() => parseXmlTree(xml));

    // Assess
    expect(error).toBeInstanceOf(EInvoiceUnreadable);
    expect((error as EInvoiceUnreadable).reason).toBe(
      'it declares a DOCTYPE or entities, which e-invoices never need',
    );
  });

  it('is a permanent error whose message says what to send instead', () => {
    // Prepare
    const xml = BILLION_LAUGHS;

    // Act
    const error = thrownBy(() => parseXmlTree(xml));

    // Assess
    expect(error).toBeInstanceOf(PermanentError);
    expect((error as Error).name).toBe('EInvoiceUnreadable');
    expect((error as Error).message).toMatch(/UN\/CEFACT CII or UBL 2\.1, UTF-8, no DOCTYPE/);
  });

  it(`accepts elements nested ${MAX_XML_DEPTH} deep and refuses one level more`, () => {
    // Prepare
    const atBound = nested(MAX_XML_DEPTH);
    const overBound = nested(MAX_XML_DEPTH + 1);

    // Act
    const tree = parseXmlTree(atBound);
    const error = thrownBy(() => parseXmlTree(overBound));

    // Assess
    expect(Object.keys(tree)).toEqual(['a']);
    expect((error as EInvoiceUnreadable).reason).toBe(`elements nest deeper than ${MAX_XML_DEPTH} levels`);
  });

  it('refuses deep nesting far past the bound as well (no stack overflow)', () => {
    // Prepare
    const xml = nested(20_000);

    // Act
    const error = thrownBy(() => parseXmlTree(xml));

    // Assess
    expect((error as EInvoiceUnreadable).reason).toBe(`elements nest deeper than ${MAX_XML_DEPTH} levels`);
  });

  it(`reads XML of ${MAX_XML_CHARS} characters and refuses one more without parsing it`, () => {
    // Prepare: well-formed, so only the size can refuse the longer one.
    const atBound = `<a>${'x'.repeat(MAX_XML_CHARS - 7)}</a>`;
    const overBound = `<a>${'x'.repeat(MAX_XML_CHARS - 6)}</a>`;

    // Act
    const tree = parseXmlTree(atBound);
    const error = thrownBy(() => parseXmlTree(overBound));

    // Assess
    expect(Object.keys(tree)).toEqual(['a']);
    expect((error as EInvoiceUnreadable).reason).toBe(
      `it is ${MAX_XML_CHARS + 1} characters, over the ${MAX_XML_CHARS} bound`,
    );
  });

  it.each([
    ['an unclosed element', '<Invoice><ID>1</Invoice>'],
    ['text where the root should be', 'this is not xml'],
    ['an empty file', ''],
    ['a truncated document', ciiXml().slice(0, 500)],
    ['two roots with content', '<Invoice><ID>1</ID></Invoice><Invoice><ID>2</ID></Invoice>'],
    ['no root, only a comment', '<!-- nothing -->'],
  ])('refuses %s as not well-formed', (_, xml) => {
    // Prepare: the XML above.

    // Act
    const error = thrownBy(() => parseXmlTree(xml));

    // Assess
    expect(error).toBeInstanceOf(EInvoiceUnreadable);
    expect((error as EInvoiceUnreadable).reason).toMatch(/^it is not well-formed XML \(/);
    expect((error as EInvoiceUnreadable).cause).toBeInstanceOf(Error);
  });

  it.each([
    ['an invoice followed by an empty second root', `${ciiXml()}<Invoice/>`],
    ['the same empty root twice', '<Invoice/><Invoice/>'],
  ])('refuses %s: XML has exactly one root', (_, xml) => {
    // Prepare: the XML above.

    // Act
    const error = thrownBy(() => parseXmlTree(xml));

    // Assess
    expect((error as EInvoiceUnreadable).reason).toBe(
      'it has 2 root elements, where well-formed XML has exactly one',
    );
  });
});

describe('reading the attachments of a document', () => {
  it('reports an unreadable invoice attachment with its name, and does not throw', () => {
    // Prepare
    const files = [{ name: 'factur-x.xml', xml: BILLION_LAUGHS }];

    // Act
    const outcome = readEInvoice(files);

    // Assess
    expect(outcome.kind).toBe('unreadable');
    expect(outcome.kind === 'unreadable' && outcome.attachment).toBe('factur-x.xml');
    expect(outcome.kind === 'unreadable' && outcome.error).toBeInstanceOf(EInvoiceUnreadable);
  });

  it('reads a good invoice beside a broken attachment', () => {
    // Prepare
    const files = [
      { name: 'factur-x.xml', xml: '<rsm:CrossIndustryInvoice>' },
      { name: 'invoice.xml', xml: ciiXml() },
    ];

    // Act
    const outcome = readEInvoice(files);

    // Assess
    expect(outcome.kind === 'einvoice' && outcome.reading.attachment).toBe('invoice.xml');
  });

  it('finds no invoice in well-formed XML whose root is neither CII nor UBL', () => {
    // Prepare
    const files = [
      {
        name: 'order.xml',
        xml: '<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"><ID>1</ID></Order>',
      },
    ];

    // Act
    const outcome = readEInvoice(files);

    // Assess
    expect(outcome).toEqual({ kind: 'none' });
  });
});
