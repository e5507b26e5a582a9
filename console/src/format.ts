/** `2h 05m`, `4m 12s`, `45s`. */
export const duration = (ms: number): string => {
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${two(s % 60)}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${two(Math.floor((s % 3600) / 60))}m`;
  return `${Math.floor(s / 86_400)}d ${two(Math.floor((s % 86_400) / 3600))}h`;
};

/** `h:mm:ss`: a clock that visibly counts down. */
const clock = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
};

/** A due time as a countdown (a clock under a day), and how urgent it is. */
export const countdown = (
  dueAt: string | undefined,
  now = Date.now(),
): { text: string; level: 'ok' | 'soon' | 'late' } => {
  if (!dueAt) return { text: '—', level: 'ok' };
  const left = Date.parse(dueAt) - now;
  if (left <= 0) return { text: 'expired', level: 'late' };
  return { text: left < 86_400_000 ? clock(left) : duration(left), level: left < 3_600_000 ? 'soon' : 'ok' };
};

/** Confidence band of a 0-1 field confidence (the colours of the field list). */
export const confidenceLevel = (confidence: number | undefined): 'high' | 'mid' | 'low' | 'none' =>
  confidence === undefined ? 'none' : confidence >= 0.9 ? 'high' : confidence >= 0.7 ? 'mid' : 'low';

/** The file name of an S3 key. */
export const fileName = (key: string | undefined): string => key?.split('/').at(-1) ?? '—';

/** A workflow's 0-100 confidence as text. */
export const percent = (confidence: number | undefined): string =>
  confidence === undefined ? '—' : `${Math.round(confidence)}%`;
