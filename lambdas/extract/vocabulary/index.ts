/** Language vocabularies as data, and what is derived from them: labels, months, language detection. */
export { detectLanguage, type LanguageGuess } from './detect.js';
export { VOCABULARIES } from './languages.js';
export {
  escapeRegExp,
  fold,
  type LabelMatch,
  labelSource,
  labelsAtStart,
  labelsIn,
  TRANSLATION_SLASH,
} from './lexicon.js';
export {
  IDENTIFIER_LABEL_FIELDS,
  LABEL_FIELDS,
  type LabelField,
  MONEY_LABEL_FIELDS,
  type MoneyLabelField,
  TOTALS_LABEL_FIELDS,
  type TotalsLabelField,
  VAT_ID_LABEL_FIELDS,
  type Vocabulary,
} from './schema.js';
export {
  ABBREVIATION_END,
  CASH_DISCOUNT,
  CONTINUED,
  DEADLINE_BEFORE,
  DEBIT_WORD,
  documentTypeCue,
  ITEM_HEADINGS,
  letterPlace,
  MONTH_PATTERN,
  monthReadings,
  NET_TERMS,
  NOT_MONEY_BEFORE,
  OWNER_AFTER_NAME,
  OWNER_CUE,
  otherDocumentCue,
  PAGE_NUMBER,
  PAYMENT_WORD,
  RANGE_JOIN_PATTERN,
  SHARE_CAPITAL,
  signedAtPlaces,
  TITLE_DATE_LINK_PATTERN,
  TITLE_ISSUER_LINK,
  vocabularyOf,
  withoutSalutation,
} from './words.js';
