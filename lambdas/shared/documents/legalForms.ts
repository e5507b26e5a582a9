/**
 * Company legal forms of the countries whose invoices Docket reads, as words a name ends with.
 * One list serves two jobs: recognising that a line names a company (extraction) and comparing
 * two spellings of a name without their legal form (the vendor master lookup).
 */

/** Legal forms as single lower-case words, dots and spaces removed ("GmbH", "S.A.R.L." -> "sarl"). */
export const LEGAL_SUFFIXES: ReadonlySet<string> = new Set([
  // English-speaking countries
  'inc',
  'incorporated',
  'llc',
  'ltd',
  'limited',
  'plc',
  'corp',
  'corporation',
  'co',
  'company',
  'lp',
  'llp',
  'pty',
  'pvt',
  'pllc',
  'lc',
  // A US professional corporation (physicians, lawyers, accountants): "Lakeside Physical Therapy P.C.".
  'pc',
  // German-speaking countries
  'gmbh',
  // A non-profit GmbH ("gemeinnützige GmbH": theatres, clinics, charities) is billed like any other.
  'ggmbh',
  'ag',
  'kg',
  'ohg',
  'ug',
  // The UG's form is "UG (haftungsbeschränkt)", brackets and all (§ 5a GmbHG); accents go before lookup.
  'haftungsbeschrankt',
  'gbr',
  'ek',
  // The German registered merchant's longer forms ("e.Kfm.", "e.Kfr."); Austria's registered sole
  // trader ("e.U.") and partnerships ("OG", "KG" above; "OEG" and "KEG" before 2007).
  'ekfm',
  'ekfr',
  'eu',
  'og',
  'oeg',
  'keg',
  'ev',
  'kgaa',
  'eg',
  'mbh',
  // A partnership of professionals (tax advisers, lawyers): "PartG", "Partner mbB".
  'partg',
  'mbb',
  // French-speaking countries
  'sa',
  'sas',
  'sasu',
  'sarl',
  'eurl',
  'snc',
  'sca',
  'sci',
  'scop',
  // Dutch and Belgian
  'bv',
  'nv',
  'vof',
  'cv',
  'bvba',
  'vzw',
  'cvba',
  // Spanish
  'sl',
  'slu',
  'sau',
  'sll',
  'scp',
  // Italian
  'srl',
  'spa',
  'sapa',
  'snc',
  'sas',
  'srls',
  'scarl',
  // Nordic, Japanese and other common ones
  'oy',
  'oyj',
  'ab',
  'as',
  'asa',
  'aps',
  // Danish and Norwegian partnerships and companies ("A/S", "I/S", "K/S", "P/S", "AMBA", "ANS"),
  // Swedish trading and limited partnerships ("HB", "KB")
  'a/s',
  'i/s',
  'k/s',
  'p/s',
  'amba',
  'ivs',
  'ans',
  'hb',
  'kb',
  'kk',
  'se',
  'sro',
  'kft',
  'lda',
  'ltda',
  // Polish: "sp. z o.o.", "S.A." (above), "spółka akcyjna", "sp.k.", "sp.j.", "s.c."
  'zoo',
  'akcyjna',
  'spk',
  'spj',
  'sc',
  // Malaysian private and public companies ("Sdn. Bhd.", "Berhad"), the Turkish limited company
  // ("Ltd. Şti."), Peruvian ("S.A.C.", "E.I.R.L."), Indonesian listed ("Tbk") and joint-stock
  // companies ("JSC").
  'sdnbhd',
  'bhd',
  'berhad',
  'sti',
  'sac',
  'eirl',
  'tbk',
  'jsc',
  // Companies of the United Arab Emirates' free zones, named by their zone's form ("FZE", "FZCO")
  // or by the zone itself (the Dubai Multi Commodities Centre's "DMCC").
  'fze',
  'fzco',
  'dmcc',
  // Finnish limited and general partnerships ("Ky", "Ay"); the Estonian private limited company
  // ("OÜ", read without its umlaut); Hungarian companies ("Kft." above, "Zrt.", "Nyrt.", "Bt.",
  // "Kkt."); Slovak and Czech partnerships ("v.o.s.", "k.s."); the companies of Croatia and
  // Slovenia ("d.o.o.", "j.d.o.o.", "d.d.") and the Slovenian sole trader ("s.p.").
  'ky',
  'ay',
  'ou',
  'zrt',
  'nyrt',
  'bt',
  'kkt',
  'vos',
  'ks',
  'doo',
  'jdoo',
  'dd',
  'sp',
  // The Baltic forms below, where a name puts them last ("Baltijos Tiekimas UAB").
  'uab',
  'sia',
  // Greek: the société anonyme ("Α.Ε."), the limited company ("Ε.Π.Ε."), the private company
  // ("Ι.Κ.Ε.") and the partnerships ("Ο.Ε.", "Ε.Ε."), read without their accents and dots.
  'αε',
  'επε',
  'ικε',
  'οε',
  'εε',
  // Bulgarian: the sole-owner and the limited company ("ЕООД", "ООД"), the joint-stock companies
  // ("АД", "ЕАД"), the partnerships ("КД", "СД"), and the first three as Latin letters print them.
  'еоод',
  'оод',
  'ад',
  'еад',
  'кд',
  'сд',
  'eood',
  'ood',
  'ead',
  // Serbian in Cyrillic: the limited company ("д.о.о."; the joint-stock "а.д." is above) and the
  // general partnership ("о.д."). Their Latin forms are Croatia's and Slovenia's.
  'доо',
  'од',
  // Ukrainian and Russian companies, where a name puts their form last ("Світанок ТОВ",
  // "Ромашка ООО"); most put it first (LEGAL_PREFIXES, below).
  'тов',
  'прат',
  'пат',
  'фоп',
  'ооо',
  'оао',
  'зао',
  'пао',
]);

/**
 * Legal forms written BEFORE the name, in capitals: the Baltic "UAB Baltijos Tiekimas"
 * (Lithuania, also "AB" and "MB"), "SIA Rīgas Koks" (Latvia), "AS Tallinna Vesi" (Estonia and
 * Latvia), the Bulgarian sole trader "ЕТ „Иван Петров“", and the Ukrainian and Russian companies
 * and sole traders ("ТОВ «Світанок»", "ФОП Коваленко І. П.", "ООО «Ромашка»", "ИП Иванов И. И.").
 * Matched only in capitals and before a capitalised word, quoted or not ("SIA \"Datu Risinājumi\""),
 * so "As agreed" names nobody.
 */
export const LEGAL_PREFIXES: ReadonlySet<string> = new Set([
  'UAB',
  'AB',
  'MB',
  'SIA',
  'AS',
  'ЕТ',
  // Ukrainian: the limited company, the private enterprise, the sole trader, the joint-stock companies.
  'ТОВ',
  'ПП',
  'ФОП',
  'ПАТ',
  'ПрАТ',
  'АТ',
  // Russian: the limited company, the joint-stock companies (open, closed, public, plain), the sole trader.
  'ООО',
  'ОАО',
  'ЗАО',
  'ПАО',
  'АО',
  'ИП',
]);
const LEADING_FORM = new RegExp(`^(?:${[...LEGAL_PREFIXES].join('|')})\\s+["„“«]?\\p{Lu}`, 'u');

/**
 * An Italian partnership's form before its partners' names, as its registered name runs
 * ("Ferramenta Rossi S.n.c. di Rossi Paolo & C.", "Bianchi S.a.s. di Bianchi Anna").
 */
const PARTNERSHIP_OF = /\bs\.?\s?(?:n\.?\s?c|a\.?\s?s)\.?\s+di\s+\p{Lu}/iu;

/**
 * Legal forms that are also words of a language ("as", "og", "ou", "sa", "ans", "limited",
 * "incorporated"): written in lower case after a name in capitals, they are a clause's words
 * ("… the Reseller as", "Marsh Ltd incorporated"), not its form.
 */
const ALSO_WORDS: ReadonlySet<string> = new Set([
  'as',
  'og',
  'ou',
  'se',
  'sa',
  'eu',
  'ans',
  'sac',
  'vos',
  'zoo',
  'spa',
  'ab',
  'ad',
  'ag',
  'eg',
  'co',
  'company',
  'limited',
  'incorporated',
  'corporation',
]);

/** Whether `name` has capitals and ends in a word in lower case that a language also uses as a word. */
const clauseWordAtEnd = (name: string): boolean => {
  const last = /(\p{L}+)\s*$/u.exec(name)?.[1] ?? '';
  return /^\p{Ll}+$/u.test(last) && ALSO_WORDS.has(last) && /\p{Lu}/u.test(name);
};

/**
 * True when a name ends in a legal form ("Acme Inc.", "Lieferant GmbH", "Au bon moulin SARL",
 * "Versicherungsverein Musterstadt a.G.", "Grundbesitz GmbH & Co. KG"), starts with a Baltic one
 * ("UAB Baltijos Tiekimas"), or names an Italian partnership's partners after it.
 */
export const hasLegalForm = (name: string): boolean => {
  const words = name
    .trim()
    // "S.à r.l." is "sarl": accents are not part of a legal form's letters.
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/(?<![\p{L}\p{N}])(\p{L})\.(?=\p{L}\.?)/gu, '$1')
    // Brackets too: "UG (haftungsbeschränkt)".
    .replace(/[.,()]/g, '')
    .toLowerCase()
    .split(/\s+/);
  const last = words[words.length - 1] ?? '';
  const lastTwo = words.slice(-2).join('');
  return (
    LEADING_FORM.test(name.trim()) ||
    (LEGAL_SUFFIXES.has(last) && !clauseWordAtEnd(name)) ||
    LEGAL_SUFFIXES.has(lastTwo) ||
    /(?:^|\s)(?:gmbh|ag|kg)\s*&\s*co/i.test(name) ||
    PARTNERSHIP_OF.test(name)
  );
};
