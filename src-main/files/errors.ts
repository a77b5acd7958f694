import { AppError } from '../../src-shared/errors.ts';

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

export function isAbortError(error: unknown): boolean {
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
