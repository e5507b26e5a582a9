import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CheckedPolicy } from '../../statemachine/reviewPolicies/index.js';
import type { CliContext } from '../context.js';
import { CheckFailedError, UsageError } from '../errors.js';
import { printJson, println } from '../io.js';

/*
 * `docket policy validate|ls|show|test`: review policies checked, listed, drawn and dry-run on the
 * author's machine, without a stack. The policy modules (zod, yaml, jsep) load only here.
 */

const policies = () => import('../../statemachine/reviewPolicies/authoring/index.js');
const folder = () => import('../../infra/policyFolder.js');

const EVENTS = ['approve', 'correct', 'reject', 'timeout'] as const;

/** `--events approve,timeout`: what happens at each approval step in turn. */
const parseEvents = (text: string | undefined): Array<(typeof EVENTS)[number]> => {
  if (!text) return [];
  const events = text.split(',').map((e) => e.trim());
  const bad = events.find((e) => !(EVENTS as readonly string[]).includes(e));
  if (bad !== undefined) {
    throw new UsageError(
      `--events takes ${EVENTS.join(', ')} separated by commas; "${bad}" is none of them.`,
    );
  }
  return events as Array<(typeof EVENTS)[number]>;
};

const readJson = async (path: string, what: string): Promise<unknown> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? error}.`, {
      cause: error,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} ${path} is not JSON: ${(error as Error).message}.`, { cause: error });
  }
};

/** A policy by file path, or by name from the folder. */
const findPolicy = async (ctx: CliContext, nameOrFile: string, dir: string) => {
  const { readPolicyFile, readPolicyFolder } = await folder();
  if (/\.ya?ml$/.test(nameOrFile)) return readPolicyFile(resolve(ctx.io.cwd, nameOrFile));
  const set = readPolicyFolder(resolve(ctx.io.cwd, dir));
  const found = set.byName(nameOrFile);
  if (!found) {
    throw new UsageError(
      `No policy named "${nameOrFile}" in ${dir}; there are ${set.policies.map((p) => p.policy.name).join(', ')}.`,
    );
  }
  return found;
};

/** Registers `docket policy ...`. */
export const registerPolicyCommands = (program: Command, ctx: CliContext): void => {
  const policy = program
    .command('policy')
    .description('review policies (YAML): validate, list, show and dry-run them without a stack');

  policy
    .command('validate')
    .description('check policy files, each alone and all together; exit 1 naming every problem')
    .argument('<files...>', 'policy files (.yaml)')
    .option('--json', 'print JSON')
    .action(async (files: string[], options: { json?: boolean }) => {
      const { readPolicyFile } = await folder();
      const { InvalidReviewPolicyError, PolicySet } = await policies();
      const results = [];
      const checked: CheckedPolicy[] = [];
      for (const file of files) {
        try {
          const policy = readPolicyFile(resolve(ctx.io.cwd, file));
          checked.push(policy);
          const p = policy.policy;
          results.push({
            file,
            valid: true,
            name: p.name,
            version: p.version,
            steps: p.steps.length,
            issues: [],
          });
        } catch (error) {
          if (!(error instanceof InvalidReviewPolicyError)) throw error;
          results.push({ file, valid: false, issues: error.issues });
        }
      }
      const setIssues = [];
      if (results.every((r) => r.valid)) {
        try {
          new PolicySet(checked, 'these files');
        } catch (error) {
          if (!(error instanceof InvalidReviewPolicyError)) throw error;
          setIssues.push(...error.issues);
        }
      }
      if (options.json) printJson(ctx.io, { files: results, together: setIssues });
      else {
        for (const r of results) {
          if (r.valid) println(ctx.io, `ok      ${r.file}: ${r.name} v${r.version}, ${r.steps} steps`);
          else {
            println(ctx.io, `invalid ${r.file}:`);
            for (const i of r.issues)
              println(ctx.io, `  ${i.line ? `line ${i.line}, ` : ''}${i.path}: ${i.message}`);
          }
        }
        for (const i of setIssues) println(ctx.io, `invalid together: ${i.path}: ${i.message}`);
      }
      const bad = results.filter((r) => !r.valid).length;
      if (bad > 0 || setIssues.length > 0) {
        throw new CheckFailedError(
          bad > 0
            ? `${bad} of ${files.length} policy files are invalid.`
            : 'The policies conflict with each other.',
        );
      }
    });

  policy
    .command('ls')
    .description('the policies of a folder and which documents each applies to')
    .option('--dir <dir>', 'the policy folder', 'policies')
    .option('--json', 'print JSON')
    .action(async (options: { dir: string; json?: boolean }) => {
      const set = (await folder()).readPolicyFolder(resolve(ctx.io.cwd, options.dir));
      const rows = set.policies.map(({ policy: p }) => ({
        name: p.name,
        version: p.version,
        documentTypes: p.applies_to?.document_types ?? ['*'],
        tenants: p.applies_to?.tenants ?? ['*'],
        steps: p.steps.length,
      }));
      if (options.json) return printJson(ctx.io, rows);
      for (const r of rows) {
        println(
          ctx.io,
          `${r.name} v${r.version}: types ${r.documentTypes.join(',')}, tenants ${r.tenants.join(',')}, ${r.steps} steps`,
        );
      }
    });

  policy
    .command('show')
    .description('a policy as text (steps and transitions), or as a Mermaid flowchart')
    .argument('<policy>', 'a policy file (.yaml), or a policy name from --dir')
    .option('--dir <dir>', 'the policy folder a name is looked up in', 'policies')
    .option('--mermaid', 'print a Mermaid flowchart')
    .option('--json', 'print the parsed policy as JSON')
    .action(async (name: string, options: { dir: string; mermaid?: boolean; json?: boolean }) => {
      const { policy: p } = await findPolicy(ctx, name, options.dir);
      const { policyMermaid, policyText } = await policies();
      if (options.json) return printJson(ctx.io, p);
      println(ctx.io, options.mermaid ? policyMermaid(p) : policyText(p));
    });

  policy
    .command('test')
    .description('the path a record takes through a policy, without running anything')
    .argument('<policy>', 'a policy file (.yaml), or a policy name from --dir')
    .requiredOption('--record <file>', 'the record: a result JSON, or {docType, fields, facts}')
    .option(
      '--events <list>',
      'what happens at each approval step in turn: approve, correct, reject, timeout',
    )
    .option('--dir <dir>', 'the policy folder a name is looked up in', 'policies')
    .option('--json', 'print JSON')
    .action(
      async (name: string, options: { record: string; events?: string; dir: string; json?: boolean }) => {
        const events = parseEvents(options.events);
        const checked = await findPolicy(ctx, name, options.dir);
        const record = await readJson(resolve(ctx.io.cwd, options.record), 'record');
        const { policyPath, PolicySet } = await policies();
        const { factsOfRecord } = await import('../../statemachine/reviewPolicies/index.js');
        const facts = factsOfRecord(record);
        const applies = new PolicySet([checked]).select(facts).policy.name === checked.policy.name;
        const path = policyPath(checked, facts, events);
        if (options.json) return printJson(ctx.io, { policy: checked.policy.name, applies, facts, ...path });
        println(ctx.io, `facts: ${JSON.stringify(facts)}`);
        if (!applies)
          println(ctx.io, `note: ${checked.policy.name} does not apply to this record (see applies_to)`);
        for (const s of path.steps) {
          const why = s.when ? ` (${s.when})` : '';
          println(
            ctx.io,
            `  ${s.step} [${s.type}${s.role ? ` by ${s.role}` : ''}]${s.event ? ` ${s.event}${why}` : ''}`,
          );
        }
        println(ctx.io, `ends ${path.outcome} after ${path.approvals} approval(s)`);
      },
    );
};
