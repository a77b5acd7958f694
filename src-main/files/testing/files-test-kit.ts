import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';

/**
 * A temporary folder for one test file, removed after its tests, and
 * `temp(content)`, which writes `content` to a new file in it (`t0.csv`,
 * `t1.csv`, ... for the extension `.csv`) and gives its path.
 */
export function tempFiles(prefix: string, extension: string): (content: string) => string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  return (content) => {
    const path = join(dir, `t${files++}${extension}`);
    writeFileSync(path, content);
    return path;
  };
}

/** The AppError a promise fails with (any other outcome fails the test). */
export async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}
