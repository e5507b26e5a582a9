import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  detectLanguage,
  documentTypeCue,
  fold,
  LABEL_FIELDS,
  type LabelField,
  labelsAtStart,
  VOCABULARIES,
} from '../../lambdas/extract/vocabulary/index.js';
import { VocabularySchema } from '../../lambdas/extract/vocabulary/schema.js';

const FOLDER = fileURLToPath(new URL('../../lambdas/extract/vocabulary/', import.meta.url));
const files = readdirSync(FOLDER).filter((f) => f.endsWith('.json'));

/** Every label of a vocabulary with its field. */
const labelsOf = (code: string): { field: LabelField; label: string }[] => {
  const vocabulary = VOCABULARIES.find((v) => v.code === code);
  if (!vocabulary) throw new Error(`no vocabulary ${code}`);
  return LABEL_FIELDS.flatMap((field) =>
    [...vocabulary.labels[field].strong, ...(vocabulary.labels[field].weak ?? [])].map((label) => ({
      field,
      label,
    })),
  );
};

/**
 * How the lexicon sees a label: folded (case, accents, "ß") and without the spaces, dots, dashes
 * and apostrophes it treats as optional, so "ust.-betrag" and "Ust Betrag" are one label.
 */
const key = (label: string): string => fold(label).replace(/[\s.\-'’/]/g, '');

/**
 * Fields that may share a label because the value tells them apart: "TVA 200,00" is the tax and
 * "TVA FR12345678901" the VAT id; "Zahlungsziel 31.03.2024" is a due date and "Zahlungsziel 14
 * Tage" the payment terms. Any other shared label is a coin toss between two fields.
 */
const TOLD_APART_BY_VALUE = [
  ['tax', 'vatId'],
  ['dueDate', 'paymentTerms'],
  ['currency', 'dueDate'],
].map((pair) => pair.sort().join('+'));

describe('vocabularies', () => {
  it('lists every vocabulary file, and every file matches the schema', () => {
    // Act
    const parsed = files.map((f) => ({
      file: f,
      result: VocabularySchema.safeParse(JSON.parse(readFileSync(join(FOLDER, f), 'utf8'))),
    }));

    // Assess
    expect(files.length).toBeGreaterThanOrEqual(6);
    expect(parsed.filter((p) => !p.result.success).map((p) => p.file)).toEqual([]);
    expect(VOCABULARIES.map((v) => `${v.code}.json`).sort()).toEqual([...files].sort());
  });

  it('gives every language a strong label for every field English labels, month names and title words', () => {
    // Prepare
    const english = VOCABULARIES.find((v) => v.code === 'en');
    const fields = LABEL_FIELDS.filter((f) => (english?.labels[f].strong.length ?? 0) > 0);

    // Act
    const gaps = VOCABULARIES.flatMap((v) => [
      ...fields.filter((f) => v.labels[f].strong.length === 0).map((f) => `${v.code}: no ${f} label`),
      ...(v.documentTypes.invoice.length === 0 ? [`${v.code}: no invoice title`] : []),
      ...(v.documentTypes.creditNote.length === 0 ? [`${v.code}: no credit note title`] : []),
      ...(v.titleDateLinks.length === 0 ? [`${v.code}: no title date link`] : []),
      ...(v.stopwords.length < 15 ? [`${v.code}: too few stopwords to tell the language`] : []),
    ]);

    // Assess
    expect(fields).toEqual([...LABEL_FIELDS]);
    expect(gaps).toEqual([]);
  });

  it('lists no label twice in one field (spelling variants such as "mwst" and "mwst." are kept on purpose)', () => {
    // Act
    const repeats = VOCABULARIES.flatMap((v) =>
      LABEL_FIELDS.flatMap((field) => {
        const keys = [...v.labels[field].strong, ...(v.labels[field].weak ?? [])].map((l) => l.toLowerCase());
        return keys.filter((k, i) => keys.indexOf(k) !== i).map((k) => `${v.code} ${field}: ${k}`);
      }),
    );

    // Assess
    expect(repeats).toEqual([]);
  });

  it('gives no label to two fields the value cannot tell apart, in any language (labels of every language are matched on every document)', () => {
    // Prepare
    const fieldsByKey = new Map<string, Set<string>>();
    for (const v of VOCABULARIES) {
      for (const { field, label } of labelsOf(v.code)) {
        fieldsByKey.set(key(label), (fieldsByKey.get(key(label)) ?? new Set()).add(field));
      }
    }

    // Act
    const ambiguous = [...fieldsByKey.entries()]
      .filter(([, fields]) => fields.size > 1 && !TOLD_APART_BY_VALUE.includes([...fields].sort().join('+')))
      .map(([k, fields]) => `${k}: ${[...fields].join(', ')}`);

    // Assess
    expect(ambiguous).toEqual([]);
  });

  it.each([
    ['Datum dospijeca', 'dueDate'],
    ['Data scadenţei', 'dueDate'],
    ['Data scadentei', 'dueDate'],
    ['Fizetesi hatarido', 'dueDate'],
    ['Fizetési határidö', 'dueDate'],
    ['Is viso su PVM', 'total'],
    ['Pardavejas', 'vendor'],
    ['Piegadatajs', 'vendor'],
    ['Rekina datums', 'invoiceDate'],
    ['Odberatel', 'customer'],
    ['Celkem k uhrade', 'amountDue'],
    ['Spolu k uhrade', 'amountDue'],
  ])('finds "%s", a label printed without its accents or with a look-alike letter, as %s', (text, field) => {
    // Act
    const [found] = labelsAtStart(`${text}: 1`);

    // Assess
    expect(found?.field).toBe(field);
  });

  it.each([
    ['FATURA TARİHİ', 'invoiceDate'],
    ['Fatura Tarihi', 'invoiceDate'],
    ['FATURA TARIHI', 'invoiceDate'],
    ['ÖDENECEK TUTAR', 'amountDue'],
    ['Ödenecek Tutar', 'amountDue'],
    ['SATICI', 'vendor'],
    ['ALICI BİLGİLERİ', 'customer'],
    ['MAL HİZMET TOPLAM TUTARI', 'subtotal'],
    ['Mal Hizmet Toplam Tutarı', 'subtotal'],
    ['HESAPLANAN KDV', 'tax'],
    ['TOPLAM İSKONTO', 'discount'],
    ['VERGİ KİMLİK NO', 'vatId'],
  ])('finds the Turkish "%s" as %s, in capitals ("İ", "I") as in lower case ("i", "ı")', (text, field) => {
    // Act
    const [found] = labelsAtStart(`${text}: 1`);

    // Assess
    expect(found?.field).toBe(field);
  });

  it.each([
    ['İADE FATURASI', 'creditNote'],
    ['İade Faturası', 'creditNote'],
    ['E-ARŞİV FATURA', 'invoice'],
  ])('reads the Turkish title "%s" whole, its capital "İ" and "I" as "i" and "ı"', (title, kind) => {
    // Act
    const cue = documentTypeCue(title);

    // Assess
    expect(cue).toMatchObject({ kind, start: 0, end: title.length });
  });

  it('finds each label of each language as the label of its own field at the start of a cell', () => {
    // Act: the lexicon's longest match for "<label>: 1", per label.
    const lost = VOCABULARIES.flatMap((v) =>
      labelsOf(v.code)
        .filter(({ field, label }) => !labelsAtStart(`${label}: 1`).some((m) => m.field === field))
        .map(({ field, label }) => `${v.code} ${field}: ${label}`),
    );

    // Assess
    expect(lost).toEqual([]);
  });
});

/** A short paragraph in each language, written for this test (payment instructions). */
const PARAGRAPHS: Record<string, string> = {
  en: 'Thank you for your order. Please pay the amount shown below within 30 days of the invoice date.',
  de: 'Vielen Dank für Ihren Auftrag. Bitte überweisen Sie den Betrag innerhalb von 14 Tagen auf das unten genannte Konto.',
  fr: 'Merci pour votre commande. Nous vous prions de régler le montant ci-dessous par virement sous 30 jours.',
  nl: 'Hartelijk dank voor uw bestelling. Gelieve het bedrag binnen 14 dagen over te maken naar onze rekening.',
  pl: 'Dziękujemy za zamówienie. Prosimy o przelew kwoty do zapłaty na nasz rachunek w terminie 14 dni od daty wystawienia.',
  pt: 'Obrigado pela sua encomenda. Solicitamos o pagamento desta fatura até à data de vencimento, por transferência para a nossa conta.',
  es: 'Gracias por su pedido. Le rogamos que abone el importe indicado en un plazo de 30 días por transferencia.',
  it: "Grazie per il vostro ordine. Vi preghiamo di pagare l'importo indicato entro 30 giorni con bonifico bancario.",
  sv: 'Tack för er beställning. Vänligen betala beloppet till vårt bankgiro inom 30 dagar från fakturadatum.',
  da: 'Tak for din ordre. Beløbet bedes betalt til vores konto senest på forfaldsdatoen, som er angivet på fakturaen.',
  nb: 'Takk for bestillingen. Vennligst betal beløpet til vår konto innen forfallsdato som er oppgitt på fakturaen.',
  cs: 'Děkujeme za objednávku. Prosíme o úhradu faktury převodem na náš účet do data splatnosti, variabilní symbol je číslo faktury.',
  hr: 'Molimo da iznos ovog računa uplatite putem internet bankarstva prema podacima navedenim ispod, uz poziv na broj koji je naveden na uplatnici.',
  sl: 'Prosimo, da znesek plačate v roku osmih dni ter pri plačilu navedete sklic, ki je naveden tudi zgoraj.',
  sk: 'Ďakujeme za Vašu objednávku. Sumu faktúry uhraďte, prosím, prevodom na náš účet podľa dátumu splatnosti, ako variabilný symbol uveďte číslo faktúry.',
  lt: 'Dėkojame, kad pirkote. Prašome apmokėti šią sąskaitą pagal nurodytą mokėjimo terminą ir pavedime nurodyti sąskaitos faktūros numerį.',
  fi: 'Kiitos tilauksestanne. Pyydämme maksamaan laskun viimeistään eräpäivänä tilillemme, ja käyttäkää maksaessanne viitenumeroa.',
  et: 'Täname tellimuse eest. Palume arve tasuda hiljemalt maksetähtajaks meie arveldusarvele ning märkida selgitusse arve viitenumber.',
  hu: 'Köszönjük megrendelését. Kérjük, a számla összegét a fizetési határidőig átutalással egyenlítse ki a megadott bankszámlaszámra, a közleményben a számla sorszámát feltüntetve.',
  ro: 'Vă mulțumim pentru comandă. Vă rugăm să achitați suma de plată prin transfer bancar în contul nostru până la data scadenței, menționând numărul facturii.',
  el: 'Σας ευχαριστούμε για την παραγγελία. Παρακαλούμε να εξοφλήσετε το ποσό του τιμολογίου με κατάθεση στον λογαριασμό μας έως την ημερομηνία λήξης, αναφέροντας τον αριθμό του τιμολογίου.',
  lv: 'Paldies par pasūtījumu. Lūdzam apmaksāt šo rēķinu līdz norādītajam apmaksas termiņam, maksājuma mērķī norādot rēķina numuru.',
  ca: "Moltes gràcies per la vostra confiança. Us preguem que aboneu l'import d'aquesta factura mitjançant transferència al nostre compte abans del venciment, amb el número dels albarans com a concepte.",
  bg: 'Благодарим Ви за поръчката. Моля, преведете сумата по фактурата по нашата банкова сметка в срок до датата на падежа, като посочите номера на фактурата като основание за плащане.',
  tr: 'Siparişiniz için teşekkür ederiz. Lütfen fatura tutarını son ödeme tarihine kadar aşağıda belirtilen banka hesabımıza havale ile ödeyiniz ve açıklama kısmına fatura numarasını yazınız.',
  sr: 'Молимо Вас да износ са овог рачуна уплатите на наш текући рачун најкасније до датума валуте, уз позив на број рачуна.',
  uk: 'Дякуємо за замовлення. Будь ласка, сплатіть суму цього рахунку на наш поточний рахунок протягом п’яти банківських днів, вказавши номер рахунку в призначенні платежу.',
  ru: 'Благодарим за заказ. Просим оплатить счёт в течение пяти банковских дней, указав номер счёта в назначении платежа; сумма НДС включена в итоговую сумму.',
};

describe('detectLanguage', () => {
  it.each(Object.entries(PARAGRAPHS))('tells a short %s paragraph by its common words', (code, text) => {
    // Act
    const guess = detectLanguage(text);

    // Assess
    expect(guess?.code).toBe(code);
    expect(guess?.share).toBeGreaterThanOrEqual(0.5);
  });

  it('has a paragraph for every vocabulary, so a new language cannot skip this test', () => {
    // Assess
    expect(Object.keys(PARAGRAPHS).sort()).toEqual(VOCABULARIES.map((v) => v.code).sort());
  });

  it('says nothing about a text with too few known words (numbers, names)', () => {
    // Act
    const guess = detectLanguage('Acme GmbH 4711 12.03.2024 EUR 1.234,56 Globex B.V.');

    // Assess
    expect(guess).toBeUndefined();
  });
});
