import { describe, expect, it } from 'vitest';
import { fieldCatalog } from '../../console/fieldCatalog.js';

describe('the console field catalog, derived from the field schemas', () => {
  it('edits an invoice kind as a choice of its values, money as parts, and knows the required fields', () => {
    // Act
    const catalog = fieldCatalog();

    // Assess
    const invoice = new Map(catalog.invoice.map((f) => [f.name, f]));
    expect(invoice.get('kind')).toEqual({
      name: 'kind',
      required: false,
      kind: 'choice',
      options: ['invoice', 'credit_note'],
    });
    expect(invoice.get('total')).toMatchObject({ kind: 'text', required: true });
    expect(new Map(catalog.contract.map((f) => [f.name, f])).get('totalValue')).toMatchObject({
      kind: 'parts',
      parts: ['amount', 'currency'],
    });
  });
});
