import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICE, lowerHelperThreads, lowerThisThread } from './background-priority.ts';

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

describe.runIf(process.platform === 'linux')("V8's helper threads", () => {
  it("are lowered, every one, and the process's main thread is not", () => {
    // In a process of its own: lowering this one's would slow the tests beside.
    const url = new URL('./background-priority.ts', import.meta.url);
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { readdirSync, readFileSync } from 'node:fs';
         const { lowerHelperThreads } = await import(${JSON.stringify(url.href)});
         const lowered = lowerHelperThreads();
         const nice = (tid) => {
           const stat = readFileSync('/proc/self/task/' + tid + '/stat', 'utf8');
           return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
         };
         const helpers = readdirSync('/proc/self/task').filter(
           (tid) => readFileSync('/proc/self/task/' + tid + '/comm', 'utf8').trim() === 'V8Worker');
         console.log(JSON.stringify({ lowered, helpers: helpers.map(Number),
           nices: helpers.map(nice), main: nice(process.pid) }));`,
      ],
      { encoding: 'utf8', env: { ...process.env, SVC_BACKGROUND_PRIORITY: '' } },
    );
    const seen = JSON.parse(out) as {
      lowered: number[];
      helpers: number[];
      nices: number[];
      main: number;
    };
    expect(seen.helpers.length).toBeGreaterThan(0);
    expect(seen.lowered.sort()).toEqual(seen.helpers.sort());
    for (const nice of seen.nices) expect(nice).toBe(Math.max(seen.main, BACKGROUND_NICE));
    expect(seen.main).toBe(getPriority());
  });

  it('keep their priority when SVC_BACKGROUND_PRIORITY=normal, and off Linux', () => {
    process.env.SVC_BACKGROUND_PRIORITY = 'normal';
    try {
      expect(lowerHelperThreads()).toEqual([]);
    } finally {
      delete process.env.SVC_BACKGROUND_PRIORITY;
    }
    expect(lowerHelperThreads('darwin')).toEqual([]);
  });
});
