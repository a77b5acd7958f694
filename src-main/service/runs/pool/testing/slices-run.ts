import { afterAll, afterEach } from 'vitest';
import { closeEnginePool, configureEngineWorkers, enginePoolSlices } from '../pooled.ts';

/**
 * What the tests of work sent to the engine pool share: how they see that
 * the pool ran something, and how they leave it as they found it.
 */

/** Slices the engine pool has run so far, all its workers together. */
export const slicesRun = (): number => [...enginePoolSlices().values()].reduce((a, b) => a + b, 0);

/**
 * For a test file whose tests each set the pool's workers: the default comes
 * back after each test (plus `also`, for what a file sets beside it), and the
 * pool is closed after the file.
 */
export function restoreEnginePoolAfterEach(also?: () => void): void {
  afterEach(() => {
    configureEngineWorkers(null);
    also?.();
  });
  afterAll(closeEnginePool);
}
