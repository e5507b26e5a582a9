import { VOCABULARIES } from './languages.js';
import { fold } from './lexicon.js';

/** The language a text is written in, and how clearly. */
export interface LanguageGuess {
  code: string;
  /** Share of counted words that belong to this language (0-1). */
  share: number;
}

const STOPWORDS = VOCABULARIES.map((v) => ({ code: v.code, words: new Set(v.stopwords.map(fold)) }));

/** Fewer counted words than this say nothing about the language. */
const MIN_HITS = 4;

/**
 * Tells the language of a text from its common words (each vocabulary's stopwords), over the
 * first 20,000 characters. Undefined when too few words are known to any language.
 */
export const detectLanguage = (text: string): LanguageGuess | undefined => {
  const counts = new Map<string, number>();
  let total = 0;
  for (const word of fold(text.slice(0, 20_000)).split(/[^\p{L}]+/u)) {
    if (word.length < 2) continue;
    for (const { code, words } of STOPWORDS) {
      if (words.has(word)) {
        counts.set(code, (counts.get(code) ?? 0) + 1);
        total += 1;
      }
    }
  }
  const [best] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (!best || best[1] < MIN_HITS) return undefined;
  return { code: best[0], share: Math.round((best[1] / total) * 100) / 100 };
};
