import { registerHooks } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * A worker for worker-modules.test.ts: imports what an engine worker of the
 * given kind imports, runs what it runs, and answers with every module
 * loaded meanwhile (by URL).
 */
const loaded = new Set<string>();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    loaded.add(resolved.url);
    return resolved;
  },
});

const kind = workerData as 'operations' | 'merge';
await import('../worker-slices.ts');
if (kind === 'operations') {
  const { runBuiltinInThread, warmBuiltin } = await import('../../builtin-run.ts');
  await warmBuiltin();
  const samples = [
    { task_type: 'question_answer', question: 'What is 2 + 2?', answer: '4' },
    { task_type: 'text', text: 'A sentence or two, and nothing of a benchmark in them.' },
  ];
  const signal = new AbortController().signal;
  await runBuiltinInThread({ operation: 'audit', samples, config: { votes: 1 } }, signal);
  await runBuiltinInThread({ operation: 'fix', samples, config: { max_attempts: 3 } }, signal);
  const votes = { votes: 1 };
  const config = { audit: votes, fix: { max_attempts: 3 }, reaudit: votes };
  await runBuiltinInThread({ operation: 'refine', samples, config }, signal);
} else {
  await import('../../../file-pass/merge-rows-task.ts');
}
parentPort?.postMessage([...loaded]);
