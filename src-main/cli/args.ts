import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AppError } from '../../src-shared/errors.ts';

/**
 * `util.parseArgs` with its errors turned into the app's own (exit code 2,
 * clear message), and an option of one value given twice refused: parseArgs
 * keeps the last, so `--benchmarks gsm8k --benchmarks math` ran against MATH
 * alone without a word. `twiceHints` adds what to give instead, per option
 * (`--benchmarks` takes several names as one comma list).
 */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
  allowPositionals = false,
  twiceHints: Partial<Record<keyof O, string>> = {},
) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals, strict: true, tokens: true });
  } catch (error) {
    throw new AppError('invalid_request', parseArgsMessage(error as Error & { code?: string }));
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (option?.multiple === true || option?.type === 'boolean') continue;
    if (seen.has(token.name)) {
      const hint = twiceHints[token.name];
      throw new AppError(
        'invalid_request',
        `--${token.name} is given twice: give it once${hint === undefined ? '' : ` (${hint})`}`,
      );
    }
    seen.add(token.name);
  }
  const { values, positionals } = parsed;
  return { values, positionals };
}

/** parseArgs' own message, or a plainer one where it names a missing value as "ambiguous". */
function parseArgsMessage(error: Error & { code?: string }): string {
  const missing = /^Option '(--[\w-]+)(?: <value>)?' argument (?:missing|is ambiguous)/.exec(
    error.message,
  );
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && missing) {
    return `${missing[1]} needs a value (a value starting with a dash: ${missing[1]}=-VALUE)`;
  }
  return error.message;
}

export function parsePort(value: string, source: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new AppError('invalid_request', `${source} must be a port number 0..65535, got ${value}`);
  }
  return port;
}
