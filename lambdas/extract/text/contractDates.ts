import type { Candidate } from '../candidates.js';
import { contractCue, contractLabels, EFFECTIVE_AFTER_DATE } from '../vocabulary/contractWords.js';
import type { FinderContext } from './context.js';
import { DATE_CUE, dateRange, lastDateIn } from './contractCues.js';
import { findLabelled, type Parsed } from './labelled.js';
import { afterCue, beforeCue } from './prose.js';
import { parseDateAt } from './values.js';

/**
 * The readings of a contract's start and end: labels, a period's two dates, and the clauses that
 * say when it takes effect and until when it runs, in every language with a vocabulary.
 */

/** Readings that date a contract only by default: a defined "Effective Date" outranks them. */
const DATED_BY_DEFAULT: ReadonlySet<string> = new Set([
  'prose:entered-into',
  'prose:dated',
  'prose:commences',
]);

/** A period read from its two dates: its start, end, or stated term (`dateRange`). */
type PeriodPart<V> = (period: NonNullable<ReturnType<typeof dateRange>>) => Parsed<V> | undefined;

/** A part of the period after a label of the period or of the term. */
const labelledPeriod = <V>(ctx: FinderContext, part: PeriodPart<V>, via: string): Candidate<V>[] =>
  (['termRange', 'term'] as const).flatMap((label) =>
    findLabelled(
      ctx.doc,
      contractLabels(label),
      (t) => {
        const period = dateRange(t, ctx);
        return period && part(period);
      },
      { confidence: 0.93, numbered: true, via },
    ),
  );

/**
 * A period's start or end after a label of the period or of the term ("Vertragszeitraum:
 * 01.07.2025 - 30.06.2026", "Durata: dal 1° settembre 2025 al 31 agosto 2026"); a term label's
 * value that is a duration ("Laufzeit: 24 Monate") is no period and gives nothing here.
 */
const labelledRange = (ctx: FinderContext, end: 'start' | 'end'): Candidate<string>[] =>
  labelledPeriod(ctx, (period) => period[end], 'label:range');

/**
 * The term a labelled period states in brackets after its dates ("License Term: October 1, 2025
 * through September 30, 2028 (36 months)", "Aftaleperiode: 1. maj 2025 til 30. april 2026 (12
 * måneder)").
 */
export const labelledRangeTerm = (ctx: FinderContext): Candidate<number>[] =>
  labelledPeriod(ctx, (period) => period.months, 'label:range-term');

/** How far after a term's cue its duration may end and a period start. */
const DURATION_THEN_PERIOD = 40;

/**
 * A period after the term's duration in its clause ("tendrá una duración de un año, desde el 1 de
 * junio de 2025 hasta el 31 de mayo de 2026", "for a term of 12 months, from 1 July 2025 to 30
 * June 2026"): the period after the first comma.
 */
const periodAfterTerm = (ctx: FinderContext, end: 'start' | 'end'): Candidate<string>[] =>
  afterCue(
    ctx.doc,
    contractCue('term'),
    (t) => {
      const comma = t.slice(0, DURATION_THEN_PERIOD).indexOf(', ');
      return comma < 0 ? undefined : dateRange(t.slice(comma + 2), ctx)?.[end];
    },
    0.88,
    `prose:term-period-${end}`,
  );

/** Every reading of the date a contract takes effect. */
const effectiveDateReadings = (ctx: FinderContext): Candidate<string>[] => {
  const dateAt = parseDateAt(ctx.order, ctx.language);
  return [
    ...labelledRange(ctx, 'start'),
    ...periodAfterTerm(ctx, 'start'),
    ...findLabelled(ctx.doc, contractLabels('effectiveDate'), dateAt, { numbered: true }),
    ...afterCue(ctx.doc, contractCue('effective'), dateAt, 0.9, 'prose:takes-effect'),
    // The verb last: "İşbu sözleşme 01.04.2025 tarihinde yürürlüğe girer", "2025. április 1-jén lép hatályba".
    ...beforeCue(ctx.doc, EFFECTIVE_AFTER_DATE, (t) => lastDateIn(t, ctx), 0.9, 'prose:takes-effect-after'),
    ...beforeCue(ctx.doc, DATE_CUE('effective date'), (t) => lastDateIn(t, ctx), 0.96, 'prose:defined-date'),
    // A commencement date may be the services' start, later than the contract's: no definition of it.
    ...beforeCue(
      ctx.doc,
      DATE_CUE('commencement date'),
      (t) => lastDateIn(t, ctx),
      0.96,
      'prose:defined-start',
    ),
    ...afterCue(
      ctx.doc,
      /\b(?:entered\s+into|made(?:\s+and\s+entered\s+into)?)\s+(?:as\s+of|on|effective(?:\s+as\s+of)?|(?:on\s+)?(?:the|this)(?=\s+\d))\s+/i,
      dateAt,
      0.93,
      'prose:entered-into',
    ),
    ...afterCue(
      ctx.doc,
      /\bis\s+effective\s+(?:as\s+of|on|(?:on\s+)?(?:the|this)(?=\s+\d))\s+/i,
      dateAt,
      0.93,
      'prose:is-effective',
    ),
    ...afterCue(
      ctx.doc,
      // "This Agreement is dated …"; "THIS SUPPLY AGREEMENT (this "Agreement"), dated as of …" (a
      // comma form only after "this": ", dated" after another agreement's name dates that one).
      /\b(?:(?:agreement|contract)(?:\s*\([^)]{0,40}\))?\s+is|this\s+(?:[\w-]+\s+){0,4}(?:agreement|contract)(?:\s*\([^)]{0,40}\))?\s*,)\s+dated\s+(?:as\s+of\s+)?/i,
      dateAt,
      0.9,
      'prose:dated',
    ),
    ...afterCue(
      ctx.doc,
      // "Five (5) years commencing September 1, 2025": a date right after "commencing" too.
      /\b(?:commences?|commencing|starts?|starting|takes?\s+effect|becomes?\s+effective|begins?)\s+(?:on|as\s+of|from)\s+|\bcommencing\s+(?=\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d)/i,
      dateAt,
      0.88,
      'prose:commences',
    ),
  ];
};

/**
 * The date a contract takes effect. A defined term is the contract's own word on it: where one
 * defines the date, the readings that only date the contract by default and name another date are
 * dropped, not weighed against it. "entered into as of June 12, 2025" dates the signing where
 * "commences on July 1, 2025 (the "Effective Date")" defines the start.
 */
export const effectiveDates = (ctx: FinderContext): Candidate<string>[] => {
  const readings = effectiveDateReadings(ctx);
  const defined = new Set(readings.filter((c) => c.via === 'prose:defined-date').map((c) => c.value));
  if (defined.size === 0) return readings;
  return readings.filter((c) => !DATED_BY_DEFAULT.has(c.via) || defined.has(c.value));
};

/** Every reading of the date a contract ends. */
export const expirationDates = (ctx: FinderContext): Candidate<string>[] => {
  const dateAt = parseDateAt(ctx.order, ctx.language);
  return [
    ...labelledRange(ctx, 'end'),
    ...periodAfterTerm(ctx, 'end'),
    ...findLabelled(ctx.doc, contractLabels('expirationDate'), dateAt, { numbered: true }),
    ...afterCue(ctx.doc, contractCue('expiration'), dateAt, 0.88, 'prose:ends'),
    // The period a clause says the contract takes effect for: "Avtalet gäller från och med
    // 2025-10-01 till och med 2028-09-30", "od dnia 1 sierpnia 2025 r. do dnia 31 lipca 2026 r.".
    ...afterCue(ctx.doc, contractCue('effective'), (t) => dateRange(t, ctx)?.end, 0.88, 'prose:period-end'),
    ...afterCue(
      ctx.doc,
      /\b(?:in\s+force\s+until|remain\s+in\s+effect\s+until|continue\s+in\s+effect\s+through|expires?\s+on|end(?:ing|s)\s+on|until|through)\s+/i,
      dateAt,
      0.88,
      'prose:until',
    ),
    // A term's own end after its counted length ("for twenty-four (24) months, ending June 30,
    // 2027"): not a bare "ending", which as often ends a fiscal year ("the year ending December 31").
    ...afterCue(
      ctx.doc,
      /\d\)?\s*(?:months?|years?)\s*,?\s+(?:and\s+)?ending\s+/i,
      dateAt,
      0.88,
      'prose:term-ending',
    ),
    // The end of a period whose start the same sentence gives ("commencing August 1, 2025 and
    // ending July 31, 2028"): the "ending" of that start, not of a fiscal year.
    ...afterCue(
      ctx.doc,
      /\b(?:commencing|beginning|starting)\s+(?:on\s+)?[^.;]{4,30}?\s+and\s+end(?:ing|s)\s+(?:on\s+)?/i,
      dateAt,
      0.88,
      'prose:start-and-ending',
    ),
    // An amendment's new end: "The term of the Agreement is extended for twelve (12) months from
    // 1 July 2025 to 30 June 2026", "extended until 31 March 2027".
    ...afterCue(
      ctx.doc,
      /\b(?:term|agreement|contract)\b[^.;]{0,30}?\bextended\b[^.;]{0,60}?\b(?:to|until|through)\s+/i,
      dateAt,
      0.88,
      'prose:extended-to',
    ),
  ];
};
