import type { EngineBackend } from '../backend.ts';

/**
 * The builtin backend, its engine (engine.ts: the checks, the fixers, the
 * rules' tables, the tokenizer's code) loaded at its first use. Every thread
 * that chooses a backend holds this object, and most never run it: the main
 * thread of a file pass or of the server hands the work to the engine's
 * workers, and loading the engine there was ~0.3 s of its start. A thread
 * that runs it pays the load once (`loadBuiltinEngine` ahead, or its first
 * audit), then each call goes straight to the engine.
 */
let engine: EngineBackend | undefined;
let loading: Promise<EngineBackend> | undefined;

export function loadBuiltinEngine(): Promise<EngineBackend> {
  loading ??= import('./engine.ts').then(({ builtinEngine }) => (engine = builtinEngine));
  return loading;
}

export const builtinBackend: EngineBackend = {
  id: 'builtin',

  prepare(samples, ctx) {
    // A hint (see EngineBackend): before the engine is loaded there is nothing to prepare.
    if (engine) engine.prepare?.(samples, ctx);
    else loadBuiltinEngine().catch(() => undefined); // its audit says why it failed
  },

  audit(sample, ctx) {
    return engine
      ? engine.audit(sample, ctx)
      : loadBuiltinEngine().then((loaded) => loaded.audit(sample, ctx));
  },

  proposeFix(sample, audit, attempt, maxAttempts, ctx) {
    return engine
      ? engine.proposeFix(sample, audit, attempt, maxAttempts, ctx)
      : loadBuiltinEngine().then((loaded) =>
          loaded.proposeFix(sample, audit, attempt, maxAttempts, ctx),
        );
  },
};
