import { format } from 'node:util';
import { AppError } from '../../src-shared/errors.ts';
import { packageVersion } from './paths.ts';
import { Interrupted } from './interruption.ts';
// This thread writes rows it is handed: a BigInt in one (an integer past 2^53) as its digits.
import '../../src-shared/exact-json.ts';

const COMMANDS_USAGE = `svc: audit and fix training data

commands:
  svc serve [--host H] [--port P] [--data-dir DIR]   run the localhost service and the app's UI
  svc audit|fix|refine IN [--out OUT] [options]       run an operation over a dataset file
  svc merge OUT PART...                              merge the parts of a run in shards (--shard I/N)
  svc keys create [--name N] | list | revoke ID       API keys for the localhost service
  svc credits add USD | show                         the local credit ledger
  svc settings get [--json] | set KEY VALUE | unset KEY   rates, limits, upstream models
  (every command takes --data-dir DIR, or SVC_DATA_DIR)
  svc --version                                      print the version`;

/** The whole usage, with each command's own (their modules are loaded for it). */
async function usage(): Promise<string> {
  const [{ SERVE_USAGE }, { FILE_OPS_USAGE }, { MERGE_USAGE }] = await Promise.all([
    import('./serve.ts'),
    import('./file-ops.ts'),
    import('./merge.ts'),
  ]);
  return `${COMMANDS_USAGE}\n\n${SERVE_USAGE}\n\n${FILE_OPS_USAGE}\n\n${MERGE_USAGE}`;
}

/** `svc audit|fix|refine`: the engine's workers start first (pool-ahead.ts). */
async function fileOperation(operation: 'audit' | 'fix' | 'refine', argv: string[]): Promise<void> {
  (await import('./pool-ahead.ts')).prepareWorkers('pass', argv);
  await (await import('./file-ops.ts')).fileOperationCommand(operation, argv);
}

/**
 * Each command's module is loaded when it runs: loading all of them (the
 * server's routes, the engine) cost every command ~0.5 s of CPU before it
 * began, where `svc merge` needs 0.3 s of it and `svc keys` almost none.
 */
const COMMANDS: Record<string, (argv: string[]) => Promise<void>> = {
  serve: async (argv) => (await import('./serve.ts')).serveCommand(argv),
  keys: async (argv) => (await import('./keys.ts')).keysCommand(argv),
  credits: async (argv) => (await import('./credits.ts')).creditsCommand(argv),
  settings: async (argv) => (await import('./settings.ts')).settingsCommand(argv),
  audit: (argv) => fileOperation('audit', argv),
  fix: (argv) => fileOperation('fix', argv),
  refine: (argv) => fileOperation('refine', argv),
  merge: async (argv) => {
    (await import('./pool-ahead.ts')).prepareWorkers('merge', argv);
    await (await import('./merge.ts')).mergeCommand(argv);
  },
};

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(await usage());
    return;
  }
  if (command === '--version' || command === '-v') {
    console.log(packageVersion());
    return;
  }
  const run = COMMANDS[command];
  if (!run)
    throw new AppError(
      'invalid_request',
      `unknown command ${JSON.stringify(command)}\n\n${await usage()}`,
    );
  await run(rest);
}

// A reader that stops early (`svc credits show | head`) closes the pipe: that is the end of the
// output, not a failure worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// Progress, findings and summaries go to stderr. A stderr that fails (a reader that stopped:
// `2>&1 | head`; a full disk: `2>/dev/full`) loses those lines, not the run: it failed the whole
// run and left OUT.partial behind. The output and the exit code still say how the run went; the
// failure is nowhere else to be told.
process.stderr.on('error', () => undefined);

/**
 * Says why the command failed, then exits once stderr has taken it. A pipe
 * whose reader is slower than the run fills (64 KiB), and Node queues the
 * writes after that: `process.exit()` at once dropped them, the last line,
 * the reason, included. Workers may keep the process alive, so it still
 * exits, when the queue is written or after a bound if stderr never takes it.
 */
function failWith(message: string, code: number): void {
  process.exitCode = code;
  const exit = () => process.exit(code);
  process.stderr.write(`${message}\n`, exit);
  setTimeout(exit, STDERR_DRAIN_MS).unref();
}
const STDERR_DRAIN_MS = 10_000;

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof AppError) {
    failWith(
      `svc: ${error.message}`,
      error instanceof Interrupted ? error.exitCode : error.code === 'invalid_request' ? 2 : 1,
    );
  } else {
    failWith(format(error), 1);
  }
});
