/**
 * The text `npm run cost` prints: one table per path with a row per service and the two designs
 * side by side, with and without the state machines' logs; then the details, the verdict, the
 * child's worst case and how history and retry work without GetExecutionHistory.
 */

import type { DesignFigures, ServiceCosts } from './costFigures.js';
import type { CostResult } from './costResult.js';

const usd = (n: number) => `$${n.toFixed(4)}`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const SERVICE_ROWS: [keyof ServiceCosts, string][] = [
  ['stepFunctionsStandard', 'Step Functions Standard'],
  ['stepFunctionsExpress', 'Step Functions Express'],
  ['lambda', 'Lambda'],
  ['dynamodb', 'DynamoDB'],
  ['s3', 'S3'],
  ['xray', 'X-Ray'],
  ['httpApi', 'HTTP API'],
];

const table = (title: string, today: DesignFigures, nested: DesignFigures): string[] => {
  const row = (label: string, a: number, b: number) =>
    `  ${label.padEnd(40)} ${usd(a).padStart(9)} ${usd(b).padStart(12)} ${usd(b - a).padStart(10)}`;
  return [
    `\n${title}, $ per 1,000 documents`,
    `  ${'service'.padEnd(40)} ${'today'.padStart(9)} ${'Express child'.padStart(12)} ${'change'.padStart(10)}`,
    ...SERVICE_ROWS.map(([key, label]) => row(label, today.per1000[key], nested.per1000[key])),
    row('= total without logs', today.totalWithoutLogs, nested.totalWithoutLogs),
    row('CloudWatch Logs, Standard (ALL, no data)', today.per1000.logsStandard, nested.per1000.logsStandard),
    row('CloudWatch Logs, Express (ALL + data)', today.per1000.logsExpress, nested.per1000.logsExpress),
    row('= total with logs', today.totalWithLogs, nested.totalWithLogs),
    row('  or with the child at ALL, no data', today.totalWithLogs, nested.totalWithNoDataLogsInChild),
    row('  or with the child at ERROR', today.totalWithLogs, nested.totalWithErrorLogsInChild),
  ];
};

/** Prints the report to stdout. */
export const printCostReport = (r: CostResult): void => {
  const lines: string[] = [];
  for (const name of ['auto', 'review'] as const) {
    const p = r[name];
    lines.push(...table(`${name} path`, p.today, p.nested));
    lines.push(`  documents measured: ${JSON.stringify(p.documents)}`);
    lines.push(`  today:  ${p.today.transitions} transitions: ${p.today.standardPath.join(' > ')}`);
    lines.push(`  nested: ${p.nested.transitions} transitions: ${p.nested.standardPath.join(' > ')}`);
    const x = p.nested.express;
    if (x) {
      lines.push(
        `          child (Express, ${p.nested.expressPath.length} states): ${p.nested.expressPath.join(' > ')}`,
        `          child ${x.durationMs.toFixed(0)} ms -> billed ${x.billedMs} ms x ${x.billedMemoryMb} MB = ${x.gbSeconds.toFixed(4)} GB-s, 1 request`,
      );
    }
    lines.push(
      `  logs per document: today ${p.today.logs.standard.events.toFixed(0)} events ${kb(p.today.logs.standard.bytes)}; ` +
        `nested parent ${p.nested.logs.standard.events.toFixed(0)} events ${kb(p.nested.logs.standard.bytes)}, ` +
        `child ${p.nested.logs.express.events.toFixed(0)} events ${kb(p.nested.logs.express.bytes)}`,
    );
    lines.push(
      `  Lambda (both designs): ${p.shared.lambdaInvocations} invocations, ${p.shared.lambdaGbSeconds.toFixed(4)} GB-s`,
    );
    for (const s of p.shared.stages) {
      lines.push(
        `    ${s.stage.padEnd(16)} ${String(s.ms).padStart(6)} ms x ${String(s.memoryMb).padStart(4)} MB = ${s.gbs.toFixed(4)} GB-s`,
      );
    }
    const q = p.shared.requests;
    lines.push(
      `  DynamoDB (both): ${q.dynamoWriteRequests.toFixed(1)} write requests = ${q.dynamoWriteUnits.toFixed(1)} WRU ` +
        `(${q.dynamoTableWriteUnits.toFixed(1)} table + ${q.dynamoIndexWriteUnits.toFixed(1)} GSI), ${q.dynamoReadUnits.toFixed(1)} RRU; ` +
        `S3: ${q.s3Writes.toFixed(1)} PUT/COPY, ${q.s3Reads.toFixed(1)} GET`,
    );
    lines.push(
      `  the child could run ${p.breakEvenChildSeconds.toFixed(0)} s per document before the nested design stops saving`,
    );
  }
  const v = r.verdict;
  lines.push(
    `\nAssumed: Express overhead ${r.assumptions.expressTaskOverheadMs} ms per Task, ${r.assumptions.expressStateOverheadMs} ms per other state; ${r.assumptions.syncTask}.`,
  );
  lines.push(
    '\nVerdict (auto path, LLM and OCR excluded, logs included)',
    `  today ${usd(v.autoToday)}, Express child ${usd(v.autoNested)} with the child at ALL + data: goal <= ${usd(v.goalPer1000)} ${v.meetsGoal ? 'met' : 'NOT met'}`,
    `  child at ALL without data ${usd(v.autoNestedChildNoData)} (${v.autoNestedChildNoData <= v.goalPer1000 ? 'met' : 'not met'}), child at ERROR ${usd(v.autoNestedChildAtError)} (${v.autoNestedChildAtError <= v.goalPer1000 ? 'met' : 'not met'})`,
    `  the Express child ${v.wins ? 'wins' : 'does not win'} on both paths: ${v.savingPercent.toFixed(0)}% less on the auto path, ${usd(r.auto.savingPer1000)} per 1,000 (review path: ${usd(r.review.savingPer1000)}); same ledger entries: ${v.sameLedger}`,
  );
  const w = r.worstCase;
  lines.push(
    `\nWorst case of the automatic segment (Express stops at ${w.expressMaxSeconds} s)`,
    `  with today's Task settings: ${w.todaysSettings.seconds.toFixed(0)} s (${w.todaysSettings.fits ? 'fits' : 'does not fit'}): ${w.todaysSettings.why}`,
    `  the modelled child (${w.boundedChild.childTaskTimeoutSeconds} s per Task, no Retry inside): ${w.boundedChild.seconds.toFixed(0)} s (${w.boundedChild.fits ? 'fits' : 'does not fit'})`,
    '  what must be bounded:',
    ...w.mustBound.map((b) => `  - ${b}`),
    '\nWithout GetExecutionHistory for the Express child',
    ...r.operationsWithoutExecutionHistory.map((n) => `  - ${n}`),
  );
  console.log(lines.join('\n'));
};
