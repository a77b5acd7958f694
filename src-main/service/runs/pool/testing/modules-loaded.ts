import { parentPort } from 'node:worker_threads';
import { recordResolutions } from './record-resolutions.ts';
import type { Sample } from '../../../../../src-shared/schemas/sample.ts';

/**
 * A worker for worker-modules.test.ts: imports what an engine worker of the
 * app's runs imports, runs an audit, a fix and a refine as it would, and
 * answers with every module loaded meanwhile (by URL).
 */
const loaded = recordResolutions();

await import('../worker-slices.ts');
const { runBuiltinInThread, warmBuiltin } = await import('../../builtin-run.ts');
await warmBuiltin();
const samples: Sample[] = [
  { task_type: 'question_answer', question: 'What is 2 + 2?', answer: '4' },
  { task_type: 'text', text: 'A sentence or two, and nothing of a benchmark in them.' },
];
const signal = new AbortController().signal;
await runBuiltinInThread({ operation: 'audit', samples, config: { votes: 1 } }, signal);
await runBuiltinInThread({ operation: 'fix', samples, config: { max_attempts: 3 } }, signal);
const votes = { votes: 1 };
const config = { audit: votes, fix: { max_attempts: 3 }, reaudit: votes };
await runBuiltinInThread({ operation: 'refine', samples, config }, signal);
parentPort?.postMessage([...loaded]);
