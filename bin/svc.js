#!/usr/bin/env node
// The `svc` command. The CLI is TypeScript run by Node 24's built-in type stripping.
import { enableCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';

// Each start strips the types of some 400 TypeScript files and compiles them, in this thread and
// again in every engine worker: ~0.8 s of CPU for a small file. Node keeps both (the stripped
// source, V8's code) in a cache on disk, checked against each file's contents; the workers use
// it through the variable they inherit. Without a writable cache folder it is simply not used.
const cache = enableCompileCache();
if (cache.directory && process.env.NODE_COMPILE_CACHE === undefined) {
  process.env.NODE_COMPILE_CACHE = cache.directory;
}

// Where each import resolved, kept beside that cache and used by every thread (see
// src-main/service/threads/resolve-cache.ts).
const { RESOLVE_CACHE_ENV, resolveCacheFile, useResolveCache } =
  await import('../src-main/service/threads/resolve-cache.ts');
if (cache.directory && process.env[RESOLVE_CACHE_ENV] === undefined) {
  process.env[RESOLVE_CACHE_ENV] = resolveCacheFile(
    cache.directory,
    fileURLToPath(new URL('..', import.meta.url)),
  );
}
useResolveCache();

const { serveV8Flags } = await import('../src-main/cli/v8-flags.ts');

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
