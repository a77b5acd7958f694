import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtinBackend } from './backend.ts';
import { builtinEngine } from './engine.ts';
import { parseConventions } from '../conventions.ts';
import { runWithLoadedModules } from '../testing/loaded-modules.ts';

/**
 * The builtin engine (its checks, its rules' tables) is loaded by the thread
 * that runs it, at its first use: the main thread of a file pass or of the
 * server chooses a backend and hands the work to the pool's workers, and
 * loading the engine was ~0.3 s of its start. Checked in a process of its
 * own: this one's module registry has the engine already.
 */
const here = (path: string): string =>
  JSON.stringify(fileURLToPath(new URL(path, import.meta.url)));
const script = `
const engineLoaded = () =>
  [...globalThis.loaded].some((url) =>
    /\\/engine\\/(builtin\\/engine|text\\/rules\\/index|checks\\/index)\\.ts$/.test(url),
  );
await import(${here('../../service/runs/operation.ts')});
const { createRolesBackend, BUILTIN_ROLES } = await import(${here('../upstream/backend.ts')});
const { parseConventions } = await import(${here('../conventions.ts')});
const config = { baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKey: null, timeoutMs: 2000, concurrency: 1 };
createRolesBackend({ audit: { kind: 'upstream', config }, fix: { kind: 'upstream', config } });
const made = createRolesBackend(BUILTIN_ROLES);
const conventions = parseConventions('Email addresses are fine.');
const before = engineLoaded();
const pass = await made.audit({ task_type: 'text', text: 'Write to me at a@b.example.' }, { conventions });
console.log(JSON.stringify({ before, after: engineLoaded(), checks: Object.keys(pass.verdicts.checks).length }));
`;

describe('the builtin backend', () => {
  it('loads its engine at its first audit, not when a backend is chosen', () => {
    const seen = runWithLoadedModules(script);
    expect(seen).toMatchObject({ before: false, after: true });
    expect(seen.checks).toBeGreaterThan(0);
  });

  it('answers as its engine does, before and after the engine is loaded', async () => {
    const conventions = parseConventions('');
    const sample = { task_type: 'text' as const, text: 'CafÃ© at 555-123-4567, see you   there.' };
    const audit = await builtinBackend.audit(sample, { conventions });
    expect(audit).toEqual(await builtinEngine.audit(sample, { conventions }));
    const fix = await builtinBackend.proposeFix(sample, audit.verdicts, 1, 3, { conventions });
    const direct = await builtinEngine.proposeFix(sample, audit.verdicts, 1, 3, { conventions });
    expect(fix?.candidate.changes).toEqual(direct?.candidate.changes);
    expect(fix?.usage).toEqual(direct?.usage);
  });
});
