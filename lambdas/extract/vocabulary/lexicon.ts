import { plainCaseTwins } from '../../shared/documents/index.js';
import { VOCABULARIES } from './languages.js';
import { LABEL_FIELDS, type LabelField, type Vocabulary } from './schema.js';

/**
 * Labels of every language, compiled once. A label is matched whatever the document's language
 * (invoices mix languages: "Rechnungsnummer / Invoice No."), case-insensitively, with flexible
 * spacing and punctuation ("Rechnungs-Nr.", "Rechnungs Nr", "RECHNUNGSNR") and with accents or
 * umlauts written plainly ("Faelligkeit", "Fallig" from OCR). Where labels overlap, the longest
 * wins: "Total HT" is the net amount even though "Total" alone is the gross.
 */

/** A label found in text. */
export interface LabelMatch {
  field: LabelField;
  strength: 'strong' | 'weak';
  /** The label as the vocabulary writes it. */
  label: string;
  /** The vocabulary's language. */
  language: string;
  /** Where the label starts and ends in the text searched. */
  start: number;
  end: number;
}

interface CompiledLabel {
  field: LabelField;
  strength: 'strong' | 'weak';
  label: string;
  language: string;
  /** Anchored at the start of the text searched. */
  atStart: RegExp;
  /** Its place among all labels: the order in which a lookup tries them. */
  order: number;
  /** How its text must start (`skeleton`), to be worth trying the pattern on. */
  opening: string;
}

const VARIANTS: Readonly<Record<string, string>> = {
  ä: '(?:ä|ae|a)',
  ö: '(?:ö|oe|o)',
  ü: '(?:ü|ue|u)',
  ß: '(?:ß|ss)',
  // OCR reads an accent often enough, but not always the right one ("ci-aprés" for "ci-après",
  // "representaciön" for "representación"): an accented letter matches its plain letter and any
  // of its accented forms, the umlaut among them.
  é: '[eéèêë]',
  è: '[eéèêë]',
  ê: '[eéèêë]',
  à: '[aàáâä]',
  â: '[aàáâä]',
  á: '[aàáâä]',
  í: '[iíìîï]',
  î: '[iíìîï]',
  ó: '[oóòôö]',
  ô: '[oóòôö]',
  ú: '[uúùûü]',
  û: '[uúùûü]',
  '°': '[°ºo]',
  º: '[°ºo]',
  // Every other accented letter matches its plain one (plainOf, below). Some need more:
  // Polish "ź" and "ż" are one another's misprints; OCR reads Hungarian's double acute as an
  // umlaut or a tilde and Romanian's breve as a circumflex; Romanian's comma-below letters
  // match their cedilla twins, which older fonts and keyboards print ("scadenţei", "scadenței");
  // "đ" has no plain letter of its own to the Unicode tables.
  ź: '[źżz]',
  ż: '[żźz]',
  ő: '[őöoõô]',
  ű: '[űüuû]',
  ă: '[ăâa]',
  ș: '[șşs]',
  ş: '[şșs]',
  ț: '[țţt]',
  ţ: '[ţțt]',
  đ: '[đd]',
  // Turkish dots its capital i ("İ") and leaves its dotless ı undotted in both cases ("I"): the
  // case-insensitive flag pairs neither "İ" with "i" nor "I" with "ı", so a label's "i" also
  // matches "İ" ("FATURA TARİHİ"), and "ı" its plain "i" (plainOf, below), so "I" too ("SATICI").
  i: '[iİl1]',
  // OCR reads a capital "I" and a small "l" as one another or as "1", and "O" as "0" ("lnvoice
  // No", "Subtota1", "T0TAL FACTURA"): in a label, where no digit belongs, they stand for it.
  l: '[l1i]',
  o: '[o0]',
  // Greek capitals drop their accents ("ΤΙΜΟΛΟΓΙΟ" for "Τιμολόγιο"); "ί" and "ύ" also match
  // their diaeresis forms.
  ί: '[ίιϊΐ]',
  ύ: '[ύυϋΰ]',
};

/** Letters without accents, lower case: the key labels are indexed by. */
export const fold = (text: string): string =>
  // "ß" and the Turkish dotless "ı" as their capitals write them ("SS", "I"); "İ" lowers to "i"
  // and a combining dot, which goes with the accents.
  plainCaseTwins(text.toLowerCase())
    // "ł" has no decomposition to strip, unlike the other Polish letters.
    .replace(/ł/g, 'l')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');

/**
 * The plain letter of an accented one no entry of VARIANTS names ("ā" -> "a", "ř" -> "r",
 * "ľ" -> "l"): ASCII-only printouts and OCR models of another language write it plainly, in
 * every language ("Rekina datums", "Celkem k uhrade"). Undefined for a letter with no accent.
 */
const plainOf = (ch: string): string | undefined => {
  const plain = fold(ch);
  return plain !== ch && /^\p{L}$/u.test(plain) ? plain : undefined;
};

/** What a letter of a label matches: its VARIANTS entry, or itself and its plain letter. */
const variantOf = (ch: string): string | undefined => {
  if (VARIANTS[ch]) return VARIANTS[ch];
  const plain = plainOf(ch);
  return plain ? `[${ch}${plain}]` : undefined;
};

/** The numero sign ("№"), which Bulgarian labels are written with ("ДДС №", "Фактура №"). */
const NUMERO = '\u2116';

/**
 * A label's numero sign as the lines a label is looked up in write it: "no", lower case. Folding
 * alone writes it "No", which no lower-case skeleton or key of a line starts with.
 */
const numeroSpelt = (text: string): string => text.replaceAll(NUMERO, 'no');

/** The regular expression source of one label. */
export const labelSource = (label: string): string => {
  let source = '';
  const chars = [...label.toLowerCase()];
  const last = chars.length - 1;
  for (const [i, ch] of chars.entries()) {
    const variant = variantOf(ch);
    if (variant) source += variant;
    // A space in a label may be a hyphen on the page: "Gutschrift-Nr.", "Invoice-No.".
    else if (ch === ' ') source += '[-\\s]*';
    else if (ch === '.') source += i === last ? '(?:\\.|(?![\\p{L}\\p{N}]))' : '\\.?';
    else if (ch === '-') source += '[-\\s]?';
    else if (ch === '/') source += '\\s*/\\s*';
    else if (ch === "'") source += "['’]?";
    // The numero sign, as a page prints it or as lines are spelt before reading ("No").
    else if (ch === NUMERO) source += '(?:№|n[o°º]\\.?)';
    else source += ch.replace(/[\\^$*+?()[\]{}|]/g, '\\$&');
  }
  return source;
};

/** `text` with every character a regular expression gives a meaning escaped, to match it as written. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Regular expression guards: no letter or digit just before, or just after (a word's edges). */
export const NOT_WORD_BEFORE = '(?<![\\p{L}\\p{N}])';
export const NOT_WORD_AFTER = '(?![\\p{L}\\p{N}])';

/**
 * The bucket a label is kept in, and a text looked up in: its first three letters, folded, with
 * umlauts written out ("ue") folded like umlauts ("ü"). A label whose second or third character
 * is not a letter ("n° tva", "re-nr.") is kept under the letters before it, or under its first
 * character; a lookup tries the text's three letters, its two and its one. Twenty vocabularies'
 * labels, tried one by one, were a fifth of the extractor's time with two-letter buckets.
 */
const indexKey = (text: string): string => {
  const key = ocrFolded(umlautsFolded(fold(numeroSpelt(text).slice(0, 6))));
  return /^\p{L}{1,3}/u.exec(key)?.[0] ?? key.slice(0, 1);
};

/** The letters OCR confuses made one, as the label patterns let them stand for each other (VARIANTS). */
const ocrFolded = (folded: string): string => folded.replace(/[l1]/g, 'i').replace(/0/g, 'o');

/** Umlauts written out ("ae", "oe", "ue") folded as the umlaut itself folds ("a", "o", "u"). */
const umlautsFolded = (folded: string): string =>
  folded.replace(/ae/g, 'a').replace(/oe/g, 'o').replace(/ue/g, 'u');

/** How many characters of a label's skeleton a text must start with for the label to be tried. */
const OPENING = 8;

/**
 * A text as every label pattern sees it, reduced: folded, umlauts written out folded like umlauts,
 * without the spaces, dots, hyphens, apostrophes and slashes a pattern may skip, and with the
 * letters a pattern lets stand for others ("°" for "o", "đ" for "d", "ς" for "σ") made one. A
 * label's pattern can only match a text whose skeleton starts with the label's.
 */
const skeleton = (text: string): string =>
  ocrFolded(
    umlautsFolded(
      fold(numeroSpelt(text))
        .replace(/[\s.\-'’/]/g, '')
        .replace(/[°º]/g, 'o')
        .replace(/đ/g, 'd')
        .replace(/ς/g, 'σ'),
    ),
  );

/** A rate written onto a tax's name: "CGST9", "IGST18", "VAT20". */
const TAX_RATE_SUFFIX = '(?:\\d{1,2}(?:[.,]\\d{1,2})?)?';

/** A hyphen and a word of three letters or more after a label: a compound word it starts. */
const COMPOUND_AFTER = '(?!-\\p{L}{3})';

const compile = (vocabularies: readonly Vocabulary[]): Map<string, CompiledLabel[]> => {
  const byInitial = new Map<string, CompiledLabel[]>();
  let order = 0;
  for (const vocabulary of vocabularies) {
    for (const field of LABEL_FIELDS) {
      const set = vocabulary.labels[field];
      for (const [strength, labels] of [
        ['strong', set.strong],
        ['weak', set.weak ?? []],
      ] as const) {
        for (const label of labels) {
          const source = labelSource(label);
          // A label ends where a word ends. Its abbreviation dot ("nr.") may be left out, but then
          // the word must end ("n." is not the start of "Nakatomi"); "n°" and "#" may touch a number.
          // A tax's name may carry its rate ("CGST9", "IGST18", as Zoho prints Indian GST), and
          // joined by a hyphen to a word it names something else ("VAT-exempt sales", "MWST-freie
          // Umsätze", "USt-IdNr."); a case ending is no word ("PDV-a", "PDV-om"), and a compound
          // that names the tax is a label of its own ("mva-beløp", "btw-bedrag").
          const wordEnd = /[\p{L}\p{N}]$/u.test(label)
            ? `${field === 'tax' && /\p{L}$/u.test(label) ? TAX_RATE_SUFFIX : ''}${NOT_WORD_AFTER}`
            : label.endsWith('.')
              ? ''
              : '(?![\\p{L}])';
          const end = field === 'tax' ? `${wordEnd}${COMPOUND_AFTER}` : wordEnd;
          const entry: CompiledLabel = {
            field,
            strength,
            label,
            language: vocabulary.code,
            atStart: new RegExp(`^(?:${source})${end}`, 'iu'),
            order: order++,
            opening: skeleton(label).slice(0, OPENING),
          };
          const key = indexKey(label);
          byInitial.set(key, [...(byInitial.get(key) ?? []), entry]);
        }
      }
    }
  }
  return byInitial;
};

const LABELS = compile(VOCABULARIES);

/** The labels a text with this key may open with, merged once per key: see `candidatesFor`. */
const candidatesByKey = new Map<string, CompiledLabel[]>();

/**
 * The labels a text may open with: those of its key's bucket and of the key's shorter starts, in
 * the labels' own order, so that of two labels alike the same one is reported as ever.
 */
const candidatesFor = (text: string): CompiledLabel[] => {
  const key = indexKey(text);
  let candidates = candidatesByKey.get(key);
  if (!candidates) {
    candidates = [...new Set([key, key.slice(0, 2), key.slice(0, 1)])]
      .flatMap((k) => LABELS.get(k) ?? [])
      .sort((a, b) => a.order - b.order);
    candidatesByKey.set(key, candidates);
  }
  return candidates;
};

/** Texts already looked up: the same cells are asked about by every field's finder. */
const startCache = new Map<string, LabelMatch[]>();
const START_CACHE_SIZE = 20_000;

const spanOf = (m: LabelMatch): number => m.end - m.start;

/**
 * The longest labels at the start of `text` (leading spaces ignored): one, or several when labels
 * of equal length name different fields ("TVA" is the tax and the VAT id: the value decides).
 * Strong labels win over weak ones of the same length. Only labels naming one of `fields` count
 * when `fields` is given, but the longest label overall decides: with `fields` = {total},
 * "Total HT" gives nothing, because "Total HT" is the net amount.
 */
export const labelsAtStart = (text: string, fields?: ReadonlySet<LabelField>): LabelMatch[] => {
  let all = startCache.get(text);
  if (!all) {
    all = longestAtStart(text);
    if (startCache.size >= START_CACHE_SIZE) startCache.clear();
    startCache.set(text, all);
  }
  return fields ? all.filter((m) => fields.has(m.field)) : all;
};

/**
 * A tax rate inside a label, after at most one word ("zzgl. 19 % USt.", "19% MwSt.", "plus 20%
 * VAT", "+ 7 % MwSt."): the label reads without it. Group 1 is the word kept before it; a leading
 * "+" goes with the rate.
 */
const RATE_IN_LABEL = /^(?:\+\s*)?((?:[\p{L}.]+\s+)?)\(?\d{1,2}(?:[.,]\d{1,3})?\s?%\)?\s*(?=\p{L})/u;

/**
 * A bilingual label's first half: words of a language without a vocabulary, then a slash, then
 * the label again in one with ("Celkem k úhradě / Total due", "DPH 21 % / VAT 21%"). At most a
 * rate for a number: a half with a value in it ("Nr. 12 / 2024") is no label.
 */
const FIRST_HALF = /^([^\d/:]{1,40}?(?:\d{1,2}(?:[.,]\d{1,2})?\s?%)?[^\d/:]{0,20}?)\s\/\s+(?=\p{L})/u;

/** A slash between a label or a title and its translation: "Client / Klant :", "FACTURE / FACTUUR". */
export const TRANSLATION_SLASH = /^\s*\/\s*(?=\p{L})/u;

/**
 * A label's translation in another script before the colon, as Gulf invoices print English and
 * Arabic ("Invoice Number رقم الفاتورة: INV-88214"). Only words without Latin letters or digits,
 * and only before a colon: an unlabelled value in Arabic ("Buyer  شركة الورد") stays the value.
 */
const OTHER_SCRIPT_TRANSLATION =
  /^\s+((?:[^\p{Script=Latin}\p{N}\s:/]+\s+)*?[^\p{Script=Latin}\p{N}\s:/]+)(?=\s*:)/u;

/**
 * A label with its translation after a slash, as bilingual (Belgian, Swiss, Canadian) invoices
 * print them: the label runs to the translation's end, so its value is what follows both. Only
 * a translation that names the same field: "Date / Total" is two labels.
 */
const withTranslation = (text: string, own: LabelMatch[]): LabelMatch[] => {
  const first = own[0] as LabelMatch;
  const script = OTHER_SCRIPT_TRANSLATION.exec(text.slice(first.end));
  if (script && /\p{L}/u.test(script[1] ?? '')) {
    return own.map((m) => ({ ...m, end: first.end + script[0].length }));
  }
  const slash = TRANSLATION_SLASH.exec(text.slice(first.end));
  if (!slash) return own;
  const from = first.end + slash[0].length;
  const second = labelsOpening(text.slice(from)).filter(
    (t) => t.start === 0 && own.some((m) => m.field === t.field),
  );
  if (second.length === 0) return own;
  const end = from + Math.max(...second.map((t) => t.end));
  return own.filter((m) => second.some((t) => t.field === m.field)).map((m) => ({ ...m, end }));
};

const longestAtStart = (text: string): LabelMatch[] => {
  const own = labelsOpening(text);
  if (own.length > 0) return withTranslation(text, own);
  const half = FIRST_HALF.exec(text);
  return half ? labelsOpening(text.slice(half[0].length)).map((m) => shifted(m, half[0].length)) : [];
};

const shifted = (m: LabelMatch, by: number): LabelMatch => ({ ...m, start: m.start + by, end: m.end + by });

const labelsOpening = (text: string): LabelMatch[] => {
  const lead = text.length - text.trimStart().length;
  const rest = text.slice(lead);
  const rate = RATE_IN_LABEL.exec(rest);
  if (!rate) return longestIn(rest, lead, 0, 0);
  // Matched without the rate, a label that runs past where the rate stood ends that much later.
  const kept = rate[1] ?? '';
  const without = longestIn(
    kept + rest.slice(rate[0].length),
    lead,
    kept.length,
    rate[0].length - kept.length,
  );
  const plain = longestIn(rest, lead, 0, 0);
  return (plain[0]?.end ?? 0) >= (without[0]?.end ?? 0) ? plain : without;
};

/** The longest labels at the start of `rest`, placed in the text it was cut from. */
const longestIn = (rest: string, lead: number, cutAt: number, cut: number): LabelMatch[] => {
  const candidates = candidatesFor(rest);
  const opening = skeleton(rest.slice(0, 4 * OPENING));
  let best: LabelMatch[] = [];
  for (const entry of candidates) {
    if (!opening.startsWith(entry.opening)) continue;
    const m = entry.atStart.exec(rest);
    if (!m) continue;
    const match: LabelMatch = {
      field: entry.field,
      strength: entry.strength,
      label: entry.label,
      language: entry.language,
      start: lead,
      end: lead + m[0].length + (m[0].length > cutAt ? cut : 0),
    };
    const top = best[0];
    if (!top || spanOf(match) > spanOf(top)) best = [match];
    else if (spanOf(match) === spanOf(top)) best.push(match);
  }
  if (best.some((m) => m.strength === 'strong')) best = best.filter((m) => m.strength === 'strong');
  return best.filter((m, i) => best.findIndex((o) => o.field === m.field) === i);
};

/**
 * Every label in `text`, longest first where they overlap, in order of position. Used for cells
 * that hold several "label: value" pairs ("TVA : FR11... - SIRET : 999...").
 */
export const labelsIn = (text: string, fields?: ReadonlySet<LabelField>): LabelMatch[] => {
  let kept = inCache.get(text);
  if (!kept) {
    kept = allLabelsIn(text);
    if (inCache.size >= START_CACHE_SIZE) inCache.clear();
    inCache.set(text, kept);
  }
  return fields ? kept.filter((m) => fields.has(m.field)) : kept;
};

const inCache = new Map<string, LabelMatch[]>();

/**
 * Where a word starts: a letter or sign after anything that is not a letter or digit. Not after
 * a letter and a hyphen: "Datum" in "Lieferschein-Datum" ends a compound (the delivery note's
 * date) and labels nothing of its own; compounds that are labels are in the vocabularies whole.
 */
const WORD_START = /(?<![\p{L}\p{N}]|\p{L}-)[\p{L}#°º]/gu;

const allLabelsIn = (text: string): LabelMatch[] => {
  const found: LabelMatch[] = [];
  WORD_START.lastIndex = 0;
  for (let m = WORD_START.exec(text); m; m = WORD_START.exec(text)) {
    const at = m.index;
    for (const match of longestAtStart(text.slice(at))) {
      found.push({ ...match, start: at + match.start, end: at + match.end });
    }
  }
  // Where labels overlap the longest span wins; labels of that same span all stay (the value decides).
  found.sort((a, b) => a.start - b.start || spanOf(b) - spanOf(a));
  const kept: LabelMatch[] = [];
  for (const match of found) {
    const overlapping = kept.filter((k) => match.start < k.end && match.end > k.start);
    if (overlapping.length === 0) kept.push(match);
    else if (overlapping.every((k) => spanOf(match) > spanOf(k))) {
      for (const k of overlapping) kept.splice(kept.indexOf(k), 1);
      kept.push(match);
    } else if (
      overlapping.every((k) => k.start === match.start && k.end === match.end && k.field !== match.field)
    ) {
      kept.push(match);
    }
  }
  return kept.sort((a, b) => a.start - b.start);
};
