import { spawn } from 'node:child_process';
import { access } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { watchParent } from '../../local/parentWatch.js';
import type { CliContext } from '../context.js';
import { describeError } from '../describeError.js';
import type { Io } from '../io.js';
import { PROJECT_ROOT } from '../projectRoot.js';

/** The runtime's entry; it runs in a process of its own (see `startArgs`). */
const ENTRY = join(PROJECT_ROOT, 'local', 'main.ts');

/** The review console's bundle, which the runtime serves at `/` (local/main.ts). */
const CONSOLE_DIST = join(PROJECT_ROOT, 'console', 'dist');

/** The tsx loader, by absolute URL, so a child runs TypeScript from any working directory. */
const tsxLoader = (): string => import.meta.resolve('tsx');

/**
 * Runs console/build.ts in a child process through tsx, as `npm run build:console` does. The
 * build script finds its files next to itself, which it cannot do from inside the CLI bundle, and
 * esbuild stays out of the CLI's own process.
 */
const buildBundle = (): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', tsxLoader(), join(PROJECT_ROOT, 'console', 'build.ts')],
      {
        cwd: PROJECT_ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(stderr.trim() || `console/build.ts exited with ${code}`)),
    );
  });

/**
 * Builds the review console when its bundle is missing. console/dist/ is git-ignored and only
 * `npm start` builds it (its `prestart`), so on a fresh clone `npx docket start` would advertise
 * a console URL that answers "Not found". An existing bundle is left alone: `npm start` and
 * `npm run build:console` rebuild it. A failed build does not stop the stack, which the CLI and
 * API use without the console: it is reported, and the console stays missing.
 */
export const ensureConsole = async (
  io: Io,
  dist: string = CONSOLE_DIST,
  build: () => Promise<void> = buildBundle,
): Promise<void> => {
  const present = await Promise.all(
    ['index.html', 'app.js'].map((file) =>
      access(join(dist, file)).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (present.every(Boolean)) return;
  io.stderr.write('console/dist is missing: building the review console...\n');
  try {
    await build();
  } catch (error) {
    io.stderr.write(
      `Could not build the review console (${describeError(error)}); its URL answers "Not found" ` +
        'until `npm run build:console` succeeds.\n',
    );
  }
};

/**
 * Where the runtime runs: the caller's directory when it is inside the project (paths in the
 * banner stay short), else the project root, because the parse stage forks its worker with
 * `--import tsx`, which Node resolves from the working directory.
 */
export const runtimeCwd = (cwd: string): string =>
  relative(PROJECT_ROOT, cwd).startsWith('..') ? PROJECT_ROOT : cwd;

/**
 * Node arguments of the local runtime. tsx is loaded by absolute URL so `docket start` works from
 * any directory.
 */
export const startArgs = (args: readonly string[], dataDir: string): string[] => [
  '--import',
  tsxLoader(),
  ENTRY,
  '--data-dir',
  dataDir,
  ...args,
];

/** `start`: runs the local stack in the foreground until Ctrl-C; every option goes to the runtime. */
export const registerStartCommand = (program: Command, ctx: CliContext): void => {
  program
    .command('start')
    .description(
      'run Docket on this machine (S3, DynamoDB, Step Functions emulated); `docket start --help` for options',
    )
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_options: unknown, command: Command) => {
      // `--help` is answered by the runtime, which starts nothing: no console is needed for it.
      if (!command.args.some((arg) => arg === '--help' || arg === '-h')) await ensureConsole(ctx.io);
      const child = spawn(process.execPath, startArgs(command.args, ctx.dataDir), {
        cwd: runtimeCwd(ctx.io.cwd),
        env: ctx.io.env,
        stdio: 'inherit',
      });
      // Ctrl-C reaches the child from the terminal too; a signal sent to this process only
      // (kill, a supervisor) is passed on so the runtime always stops cleanly.
      const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
      const onInt = forward('SIGINT');
      const onTerm = forward('SIGTERM');
      process.on('SIGINT', onInt);
      process.on('SIGTERM', onTerm);
      // `npm start`'s npm killed outright (no signal reaches us): stop the runtime, don't orphan it.
      const unwatch = watchParent(onTerm);
      const code = await new Promise<number>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
      }).finally(() => {
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
        unwatch();
      });
      ctx.exitCode = code;
    });
};
