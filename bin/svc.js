#!/usr/bin/env node
// The `svc` command. The CLI is TypeScript run by Node 24's built-in type stripping.
import { serveV8Flags } from '../src-main/cli/v8-flags.ts';

// `svc serve` runs long: it replaces itself (same process id, same streams) with a Node whose
// young generation is bounded, so memory under load stays near what it was after warm-up.
const flags = serveV8Flags(process.argv.slice(2), process.execArgv, process.env);
if (flags.length > 0 && typeof process.execve === 'function') {
  process.execve(
    process.execPath,
    [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)],
    process.env,
  );
}
await import('../src-main/cli/main.ts');
