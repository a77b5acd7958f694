import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runWithLoadedModules } from '../testing/loaded-modules.ts';

/**
 * The openai SDK is loaded at a role's first upstream request, not when the
 * backend is made (every command and the server's start made one). Checked
 * in a process of its own: this one's module registry has the SDK already.
 */
const backend = fileURLToPath(new URL('./backend.ts', import.meta.url));
const script = `
const sdkLoaded = () => [...globalThis.loaded].some((url) => url.includes('/node_modules/openai/'));
const { createRolesBackend } = await import(${JSON.stringify(backend)});
const config = { baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKey: null, timeoutMs: 2000, concurrency: 1 };
const made = createRolesBackend({ audit: { kind: 'upstream', config }, fix: { kind: 'builtin' } });
const before = sdkLoaded();
const sample = { task_type: 'text', text: 'Hello there.' };
const conventions = { text: '', off: new Set() };
await made.audit(sample, { conventions }).catch(() => undefined);
console.log(JSON.stringify({ before, after: sdkLoaded() }));
`;

describe('the upstream backend', () => {
  it('loads the openai SDK at its first request, not when it is made', () => {
    expect(runWithLoadedModules(script)).toEqual({
      before: false,
      after: true,
    });
  });
});
