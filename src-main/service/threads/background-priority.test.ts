import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICE, lowerThisThread } from './background-priority.ts';

/** A thread's nice value as the kernel reports it (field 19 of its stat line). */
function niceOf(tid: number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after it are plain.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[16]);
}

describe.runIf(process.platform === 'linux')('a background thread', () => {
  it('is lowered alone: the thread that lowers itself, not the process', async () => {
    const before = getPriority();
    const url = new URL('./background-priority.ts', import.meta.url);
    const worker = new Worker(
      // The listener keeps the thread alive until it is terminated: a thread
      // that ran out of work would leave /proc before its nice value is read.
      `const { parentPort } = require('node:worker_threads');
       parentPort.on('message', () => {});
       import(${JSON.stringify(url.href)}).then((m) => parentPort.postMessage(m.lowerThisThread()));`,
      { eval: true },
    );
    const tid = await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    try {
      expect(tid).not.toBe(process.pid);
      expect(niceOf(tid)).toBe(Math.max(before, BACKGROUND_NICE));
      // The calling (main) thread and the process as a whole keep theirs.
      expect(niceOf(process.pid)).toBe(before);
      expect(getPriority()).toBe(before);
    } finally {
      await worker.terminate();
    }
  });

  it('does nothing when SVC_BACKGROUND_PRIORITY=normal', () => {
    process.env.SVC_BACKGROUND_PRIORITY = 'normal';
    const before = niceOf(process.pid);
    try {
      expect(lowerThisThread()).toBeUndefined();
      expect(niceOf(process.pid)).toBe(before);
    } finally {
      delete process.env.SVC_BACKGROUND_PRIORITY;
    }
  });

  it('does nothing where a thread has no nice value of its own', () => {
    expect(lowerThisThread('darwin')).toBeUndefined();
    expect(lowerThisThread('win32')).toBeUndefined();
  });
});
