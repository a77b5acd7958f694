import { AppError } from '../../src-shared/errors.ts';

/** How the module's errors name a file and say what went wrong with it, reading or writing. */

/** The file as messages name it: its path as given, quoted. */
export function fileName(path: string): string {
  return `"${path}"`;
}

/** A file that cannot be read (or written) at all. */
export function unreadable(path: string, problem: string, cause?: unknown): AppError {
  return new AppError('invalid_request', `cannot read ${fileName(path)}: ${problem}`, { cause });
}

export function cancelled(path: string): AppError {
  return new AppError('cancelled', `reading ${fileName(path)} was cancelled`);
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** Throws the cancellation error when the signal has fired. */
export function checkSignal(path: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelled(path);
}

/** Stream errors as AppErrors: aborts become `cancelled`, anything else names the file. */
export function readFailure(
  path: string,
  error: unknown,
  signal: AbortSignal | undefined,
): AppError {
  if (error instanceof AppError) return error;
  if (signal?.aborted || isAbortError(error)) return cancelled(path);
  return unreadable(path, error instanceof Error ? error.message : String(error), error);
}

/** A file-system error in words. */
export function fsProblem(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'not a file';
  return error instanceof Error ? error.message : String(error);
}
