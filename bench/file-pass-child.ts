import { measure, measureMerge, RESULT, runShards, type ChildTask } from './file-pass.ts';

/** One measurement of bench/file-pass.ts in a process of its own; its result on stdout. */
const task = JSON.parse(process.argv[2] ?? '') as ChildTask;
const result =
  task.kind === 'pass'
    ? await measure(task.dir, task.input, task.mode, task.workers)
    : task.kind === 'shards'
      ? await runShards(task.dir, task.input)
      : await measureMerge(task.dir, task.parts, task.workers);
process.stdout.write(`${RESULT}${JSON.stringify(result)}\n`);
