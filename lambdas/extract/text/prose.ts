import type { Candidate } from '../candidates.js';
import { ABBREVIATION_END } from '../vocabulary/index.js';
import type { Parsed } from './labelled.js';
import { type DocText, lineAt } from './textIndex.js';

/** How far past a cue phrase a value may start. */
const WINDOW = 120;

const candidate = <V>(
  doc: DocText,
  parsed: Parsed<V>,
  offset: number,
  confidence: number,
  via: string,
): Candidate<V> => ({
  value: parsed.value,
  confidence: confidence * (parsed.certainty ?? 1),
  line: lineAt(doc, offset),
  ...(parsed.alternatives?.length ? { alternatives: parsed.alternatives } : {}),
  via,
});

/**
 * Values that follow a cue phrase in running text ("entered into as of <date>"). The cue may
 * span line breaks; the value is read from the text right after it.
 */
export const afterCue = <V>(
  doc: DocText,
  cue: RegExp,
  parse: (text: string) => Parsed<V> | undefined,
  confidence: number,
  via: string,
): Candidate<V>[] => {
  const re = new RegExp(cue.source, cue.flags.includes('g') ? cue.flags : `${cue.flags}g`);
  const found: Candidate<V>[] = [];
  for (let m = re.exec(doc.flat); m; m = re.exec(doc.flat)) {
    const end = m.index + m[0].length;
    const parsed = parse(doc.flat.slice(end, end + WINDOW).replace(/\s+/g, ' '));
    if (parsed) found.push(candidate(doc, parsed, end, confidence, via));
    // A cue with no value after it may overlap one that has: "løber i en periode på 24 måneder"
    // holds "løber i" and "i en periode på"; the search goes on inside the first.
    else re.lastIndex = m.index + 1;
  }
  return found;
};

/**
 * Values that come just before a cue, like a defined term: `$1,200.00 (the "Contract Value")`.
 * `parseEnd` reads the value that ends the text it is given.
 */
export const beforeCue = <V>(
  doc: DocText,
  cue: RegExp,
  parseEnd: (text: string) => { parsed: Parsed<V>; start: number } | undefined,
  confidence: number,
  via: string,
): Candidate<V>[] => {
  const re = new RegExp(cue.source, cue.flags.includes('g') ? cue.flags : `${cue.flags}g`);
  const found: Candidate<V>[] = [];
  for (let m = re.exec(doc.flat); m; m = re.exec(doc.flat)) {
    const from = Math.max(0, m.index - WINDOW);
    const before = doc.flat.slice(from, m.index).replace(/\n/g, ' ');
    const hit = parseEnd(before);
    if (hit) found.push(candidate(doc, hit.parsed, from + hit.start, confidence, via));
  }
  return found;
};

/** Sentences already split, per document: every contract field's finder reads them. */
const SENTENCES = new WeakMap<DocText, readonly { text: string; start: number }[]>();

/**
 * The sentences of the running text with their offsets (split at ". " and ";" boundaries, but
 * not after an abbreviation: "Die monatliche Vergütung beträgt 900,00 € zzgl. USt., für die
 * Laufzeit insgesamt 21.600,00 €" is one sentence).
 */
export const sentences = (doc: DocText): readonly { text: string; start: number }[] => {
  const cached = SENTENCES.get(doc);
  if (cached) return cached;
  const out: { text: string; start: number }[] = [];
  const re = /[^.;]+(?:\.(?=\S)[^.;]*)*[.;]?/g;
  for (let m = re.exec(doc.flat); m; m = re.exec(doc.flat)) {
    const text = m[0].replace(/\s+/g, ' ');
    const previous = out[out.length - 1];
    if (previous && ABBREVIATION_END.test(previous.text)) previous.text += text;
    else if (m[0].trim()) out.push({ text, start: m.index });
    if (m[0].length === 0) re.lastIndex += 1;
  }
  SENTENCES.set(doc, out);
  return out;
};

/** A candidate for a value read from a sentence. */
export const fromSentence = <V>(
  doc: DocText,
  sentence: { start: number },
  parsed: Parsed<V>,
  confidence: number,
  via: string,
): Candidate<V> => candidate(doc, parsed, sentence.start, confidence, via);
