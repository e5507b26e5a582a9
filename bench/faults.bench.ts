/**
 * Fault and fuzz figures (issue: no key, request or kill may break the stack, cross a tenant or
 * lose a document). Prints: the local S3's RSS while a 600 MB PUT streams into it; for the S3
 * front and the review API, requests, 5xx, connections closed without an answer, crashes and
 * writes outside the tenant; then kills by phase and whether the phase was seen, restarts that
 * succeeded, documents lost or doubled, workflows not settled exactly once, final states, the
 * ledger check, and where the time went.
 *
 *   npm run bench:faults        (KILLS=50 S3_RUNS=3000 API_RUNS=1500 PUT_MB=600 by default;
 *                                VERBOSE=1 prints each kill and restart)
 */
import { fuzzReviewApi } from './support/fuzzApi.js';
import { fuzzS3Front } from './support/fuzzS3.js';
import { runKillSuite } from './support/killSuite.js';
import { measureLargePut } from './support/largePut.js';

const number = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const log = (line: string) => console.log(line);

const large = await measureLargePut({ megabytes: number('PUT_MB', 600) });
log(
  `${number('PUT_MB', 600)} MB PUT: ${large.status} with the default ${large.boundMb} MB bound; with a 1 GB bound ${large.storedStatus}, streamed to disk: local S3 RSS ${large.baselineMb} MB before, peak ${large.peakMb} MB (${large.seconds} s)`,
);

const s3 = await fuzzS3Front({ runs: number('S3_RUNS', 3000) });
log(
  `S3 front fuzz: ${s3.requests} requests (${s3.notSent} more Node would not send), ${s3.status5xx.length} 5xx, ${s3.noAnswer.length} closed without an answer (${s3.shortBodies.length} more sent less body than they declared and timed out, as the server waited for it), ${s3.crashes} crashes, ${s3.writesOutsidePrefix.length} writes outside the tenant's prefix`,
);
for (const e of s3.status5xx.slice(0, 10))
  log(`  5xx: ${e.status} ${e.method} ${e.path} ${JSON.stringify(e.headers)}`);
for (const e of s3.noAnswer.slice(0, 5))
  log(`  no answer: ${e.method} ${e.path} ${JSON.stringify(e.headers)} (${e.error})`);
for (const w of s3.writesOutsidePrefix.slice(0, 10)) log(`  outside: ${w}`);

const api = await fuzzReviewApi({ runs: number('API_RUNS', 1500) });
log(
  `Review API fuzz: ${api.requests} requests (${api.notSent} more Node would not send), ${api.status5xx.length} 5xx, ${api.noAnswer.length} closed without an answer (${api.shortBodies.length} more sent less body than they declared), ${api.crashes} crashes, ${api.writesOutsidePrefix.length} writes outside the tenant`,
);
for (const e of api.status5xx.slice(0, 20))
  log(`  5xx: ${e.status} ${e.method} ${e.path} ${e.error ?? ''} body ${e.bodyBytes} bytes`);
for (const e of api.noAnswer.slice(0, 5))
  log(`  no answer: ${e.method} ${e.path} auth ${e.headers.authorization ? 'sent' : 'none'} (${e.error})`);
for (const w of api.writesOutsidePrefix.slice(0, 10)) log(`  outside: ${w}`);

const kills = await runKillSuite({ kills: number('KILLS', 50), log: process.env.VERBOSE ? log : undefined });
log(
  `kill -9: ${kills.kills} kills, ${kills.restartsSucceeded}/${kills.restarts} restarts succeeded, ${kills.uploads} uploads (${kills.stored} stored), ${kills.workflows} workflows`,
);
for (const [phase, k] of Object.entries(kills.killsByPhase))
  log(`  ${phase.padEnd(12)} ${k.kills} kills, phase seen before the kill ${k.observed}`);
log(
  `  documents lost ${kills.documentsLost.length}, doubled ${kills.documentsDoubled.length}, not settled exactly once ${kills.notSettledOnce.length}; final states ${JSON.stringify(kills.finalStates)}`,
);
for (const d of [...kills.documentsLost, ...kills.documentsDoubled, ...kills.notSettledOnce].slice(0, 10))
  log(`    ${d}`);
log(
  `  docket ledger verify: ${kills.ledgerVerified ? 'ok' : 'FAILED'} (${kills.ledgerOutput.split('\n')[0]})`,
);
const t = kills.seconds;
log(
  `  ${Math.round(t.total)} s: restarts ${Math.round(t.restarts)} s (${(t.restarts / Math.max(1, kills.restarts)).toFixed(1)} s each), waits for a phase ${Math.round(t.phaseWaits)} s, settle ${Math.round(t.settle)} s`,
);
