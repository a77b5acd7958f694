import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AppError } from '../../src-shared/errors.ts';

/** `util.parseArgs` with its errors turned into the app's own (exit code 2, clear message). */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (error) {
    throw new AppError('invalid_request', (error as Error).message);
  }
}

export function parsePort(value: string, source: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new AppError('invalid_request', `${source} must be a port number 0..65535, got ${value}`);
  }
  return port;
}
