import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ScanProgress } from './progress-bars.ts';

/** A stream that is no terminal, as a pipe or a CI log is: the bar writes whole lines. */
function captured(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { stream, text: () => text };
}

describe('ScanProgress', () => {
  it('says how much of the file the scan has read, and ends full', () => {
    const { stream, text } = captured();
    const bar = new ScanProgress(true, stream);
    bar.update(0.25, 1000);
    bar.update(0.5, 2000);
    bar.done(2400);
    const lines = text().split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^dataset checks \[[█░]+\] 25% \| 1000 samples \| /);
    expect(lines.at(-1)).toMatch(/^dataset checks \[█+\] 100% \| 2400 samples \| /);
  });

  it('holds below 100% until the scan is done: the candidates are verified after the last row', () => {
    const { stream, text } = captured();
    const bar = new ScanProgress(true, stream);
    bar.update(1, 3000);
    bar.stop();
    expect(text()).toMatch(/\] 99% \| 3000 samples/);
    expect(text()).not.toMatch(/100%/);
  });

  it('takes a share it cannot read for none, and starts no second bar once stopped', () => {
    const { stream, text } = captured();
    const bar = new ScanProgress(true, stream);
    bar.update(Number.NaN, 10);
    bar.stop();
    const written = text();
    expect(written).toMatch(/\] 0% \| 10 samples/);
    bar.update(0.5, 20);
    bar.done(30);
    expect(text()).toBe(written);
  });

  it('counts samples alone where the file cannot be measured', () => {
    const { stream, text } = captured();
    const bar = new ScanProgress(false, stream);
    bar.update(0.9, 4096);
    bar.done(4100);
    expect(text()).toMatch(/dataset checks: 4100 samples \| /);
    expect(text()).not.toMatch(/%/);
  });

  it('writes nothing when the scan never got anywhere (a file that fails at once)', () => {
    const { stream, text } = captured();
    const bar = new ScanProgress(true, stream);
    bar.stop();
    bar.done(0);
    expect(text()).toBe('');
  });
});
