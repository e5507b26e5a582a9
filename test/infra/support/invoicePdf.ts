import { PDFDocument, StandardFonts } from 'pdf-lib';

/** The lines of the one-page invoice `invoicePdf` draws. */
export const INVOICE_LINES = [
  'INVOICE',
  'Invoice number: INV-2025-0042',
  'Invoice date: 2025-03-01',
  'Due date: 2025-03-31',
  'Supplier: Acme Office Supplies Ltd',
  'VAT number: GB123456789',
  'Bill to: Globex Corporation',
  'Description                Qty    Unit price    Amount',
  'Printer paper A4           10     25.00         250.00',
  'Subtotal: 250.00 EUR',
  'VAT 20%: 50.00 EUR',
  'Total: 300.00 EUR',
];

/** A small real PDF with a text layer (pdf-lib, standard font), as an uploaded invoice would be. */
export const invoicePdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  INVOICE_LINES.forEach((line, i) => {
    page.drawText(line, { x: 50, y: 780 - i * 22, size: i === 0 ? 20 : 11, font });
  });
  return doc.save();
};
