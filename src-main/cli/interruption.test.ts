import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import { Interrupted, Interruption } from './interruption.ts';

describe('Interruption', () => {
  it('a SIGTERM aborts the work and ends the command as interrupted, code 143', () => {
    const interruption = new Interruption();
    try {
      // An event emitted here reaches the listeners as the signal would, and sends none.
      process.emit('SIGTERM', 'SIGTERM');
      expect(interruption.signal.aborted).toBe(true);
      const surfaced = new AppError('cancelled', 'the run was cancelled');
      const error = interruption.errorFor(surfaced);
      expect(error).toBeInstanceOf(Interrupted);
      expect((error as Interrupted).exitCode).toBe(143);
      expect((error as Interrupted).code).toBe('cancelled');
      expect((error as Interrupted).cause).toBe(surfaced);
    } finally {
      interruption.dispose();
    }
  });

  it.each([
    ['SIGINT', 130],
    // A closed terminal (an ssh session dropped).
    ['SIGHUP', 129],
  ] as const)('a %s stops it too, with code %i', (signal, code) => {
    const interruption = new Interruption();
    try {
      process.emit(signal, signal);
      expect((interruption.errorFor(new Error('x')) as Interrupted).exitCode).toBe(code);
    } finally {
      interruption.dispose();
    }
  });

  it('a failure of its own stays that failure, though the work is aborted', () => {
    const interruption = new Interruption();
    try {
      const failure = new AppError('invalid_request', 'line 3 is not JSON');
      interruption.abort();
      expect(interruption.signal.aborted).toBe(true);
      expect(interruption.errorFor(failure)).toBe(failure);
    } finally {
      interruption.dispose();
    }
  });

  it('takes the same signal again at once for the first (timeout signals a command twice)', () => {
    const interruption = new Interruption();
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    try {
      process.emit('SIGTERM', 'SIGTERM');
      process.emit('SIGTERM', 'SIGTERM');
      expect(exit).not.toHaveBeenCalled();
      expect((interruption.errorFor(new Error('x')) as Interrupted).exitCode).toBe(143);
    } finally {
      exit.mockRestore();
      interruption.dispose();
    }
  });

  it('leaves no listener behind once disposed', () => {
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const before = signals.map((s) => process.listenerCount(s));
    new Interruption().dispose();
    expect(signals.map((s) => process.listenerCount(s))).toEqual(before);
  });
});
