import { AppError } from '../../src-shared/errors.ts';
import { creditsCommand } from './credits.ts';
import { FILE_OPS_USAGE, fileOperationCommand } from './file-ops.ts';
import { keysCommand } from './keys.ts';
import { MERGE_USAGE, mergeCommand } from './merge.ts';
import { packageVersion } from './paths.ts';
import { SERVE_USAGE, serveCommand } from './serve.ts';
import { settingsCommand } from './settings.ts';

const USAGE = `svc: audit and fix training data

commands:
  svc serve [--host H] [--port P] [--data-dir DIR]   run the localhost service and the app's UI
  svc audit|fix|refine IN [--out OUT] [options]       run an operation over a dataset file
  svc merge OUT PART...                              merge the parts of a run in shards (--shard I/N)
  svc keys create [--name N] | list | revoke ID       API keys for the localhost service
  svc credits add USD | show                         the local credit ledger
  svc settings get [--json] | set KEY VALUE | unset KEY   rates, limits, upstream models
  (every command takes --data-dir DIR, or SVC_DATA_DIR)
  svc --version                                      print the version

${SERVE_USAGE}

${FILE_OPS_USAGE}

${MERGE_USAGE}`;

const COMMANDS: Record<string, (argv: string[]) => Promise<void>> = {
  serve: serveCommand,
  keys: keysCommand,
  credits: creditsCommand,
  settings: (argv) => settingsCommand(argv),
  audit: (argv) => fileOperationCommand('audit', argv),
  fix: (argv) => fileOperationCommand('fix', argv),
  refine: (argv) => fileOperationCommand('refine', argv),
  merge: mergeCommand,
};

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return;
  }
  if (command === '--version' || command === '-v') {
    console.log(packageVersion());
    return;
  }
  const run = COMMANDS[command];
  if (!run)
    throw new AppError('invalid_request', `unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
  await run(rest);
}

// A reader that stops early (`svc credits show | head`) closes the pipe: that is the end of the
// output, not a failure worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof AppError) {
    console.error(`svc: ${error.message}`);
    process.exit(error.code === 'invalid_request' ? 2 : 1);
  }
  console.error(error);
  process.exit(1);
});
