import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The openai SDK is loaded at a role's first upstream request, not when the
 * backend is made (every command and the server's start made one). Checked
 * in a process of its own: this one's module registry has the SDK already.
 */
const backend = fileURLToPath(new URL('./backend.ts', import.meta.url));
const hook = `import { registerHooks } from 'node:module';
registerHooks({ resolve(specifier, context, next) {
  const resolved = next(specifier, context);
  if (resolved.url.includes('/node_modules/openai/')) globalThis.sdkLoaded = true;
  return resolved;
} });`;
const script = `
const { createRolesBackend } = await import(${JSON.stringify(backend)});
const config = { baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKey: null, timeoutMs: 2000, concurrency: 1 };
const made = createRolesBackend({ audit: { kind: 'upstream', config }, fix: { kind: 'builtin' } });
const before = globalThis.sdkLoaded === true;
const sample = { task_type: 'text', text: 'Hello there.' };
const conventions = { text: '', off: new Set() };
await made.audit(sample, { conventions }).catch(() => undefined);
console.log(JSON.stringify({ before, after: globalThis.sdkLoaded === true }));
`;

describe('the upstream backend', () => {
  it('loads the openai SDK at its first request, not when it is made', () => {
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        `data:text/javascript,${encodeURIComponent(hook)}`,
        '--input-type=module',
        '-e',
        script,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(JSON.parse(out.trim().split('\n').at(-1) as string)).toEqual({
      before: false,
      after: true,
    });
  });
});
