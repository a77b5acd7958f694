import { AppError } from '../../src-shared/errors.ts';
import {
  balances,
  formatUsd,
  grant,
  ledgerEntries,
  OWNER_ACCOUNT_ID,
  type LedgerEntry,
} from '../service/billing/billing.ts';
import { MICRO_PER_CENT, MICRO_PER_USD, microToUsd } from '../service/billing/money.ts';
import { parseCommandArgs } from './args.ts';
import {
  formatTable,
  processIo,
  resolveDataDir,
  shortTime,
  withDatabase,
  type CliIo,
} from './keys.ts';

export const CREDITS_USAGE = `usage: svc credits add USD [--data-dir DIR]      add local credit, e.g. 10 or 2.50
       svc credits show [--json] [--data-dir DIR]  balance, held, available and the last 10 entries
  env: SVC_DATA_DIR (the flag wins).`;

/** The most credit one `svc credits add` takes, in USD. */
export const MAX_CREDIT_USD = 1_000_000;
const RECENT_ENTRIES = 10;

/** A positive amount of USD with at most two decimals ("10", "2.50") -> micro-USD, exactly. */
export function parseUsdAmount(text: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  const whole = match?.[1];
  const cents = match?.[2] ?? '';
  if (whole === undefined) {
    throw new AppError(
      'invalid_request',
      `the amount must be a positive number of USD with at most 2 decimals (e.g. 10 or 2.50), ` +
        `got ${JSON.stringify(text)}`,
    );
  }
  if (Number(whole) > MAX_CREDIT_USD) {
    throw new AppError(
      'invalid_request',
      `at most $${MAX_CREDIT_USD} can be added at once, got ${text}`,
    );
  }
  const micro = Number(whole) * MICRO_PER_USD + Number(cents.padEnd(2, '0')) * MICRO_PER_CENT;
  if (micro === 0) throw new AppError('invalid_request', 'the amount must be more than zero');
  return micro;
}

const signed = (entry: LedgerEntry): string =>
  entry.kind === 'grant'
    ? `+${formatUsd(entry.amount_micro)}`
    : entry.kind === 'charge'
      ? `-${formatUsd(entry.amount_micro)}`
      : formatUsd(entry.amount_micro);

/** `svc credits add|show`: the owner's account. */
export function creditsCommand(argv: string[], io: CliIo = processIo): Promise<void> {
  return Promise.resolve().then(() => runCredits(argv, io));
}

function runCredits(argv: string[], io: CliIo): void {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'help':
    case '--help':
    case '-h':
      io.stdout(CREDITS_USAGE);
      return;
    case 'add': {
      // util.parseArgs would call "-5" an unknown option; say what is wrong with it instead.
      const negative = rest.find((arg) => /^-\d/.test(arg));
      if (negative !== undefined) parseUsdAmount(negative);
      const { values, positionals } = parseCommandArgs(
        rest,
        { 'data-dir': { type: 'string' } },
        true,
      );
      const [amount, ...extra] = positionals;
      if (amount === undefined) {
        throw new AppError(
          'invalid_request',
          `svc credits add needs an amount\n\n${CREDITS_USAGE}`,
        );
      }
      if (extra.length > 0) {
        throw new AppError('invalid_request', `unexpected argument ${JSON.stringify(extra[0])}`);
      }
      const micro = parseUsdAmount(amount);
      const after = withDatabase(resolveDataDir(values['data-dir'], io.env), (db) => {
        grant(db, OWNER_ACCOUNT_ID, micro, 'added with svc credits add');
        return balances(db, OWNER_ACCOUNT_ID);
      });
      io.stdout(
        `added ${formatUsd(micro)}; balance ${formatUsd(after.balance_micro)}, ` +
          `available ${formatUsd(after.available_micro)}`,
      );
      return;
    }
    case 'show': {
      const { values, positionals } = parseCommandArgs(
        rest,
        { json: { type: 'boolean' }, 'data-dir': { type: 'string' } },
        true,
      );
      if (positionals.length > 0) {
        throw new AppError(
          'invalid_request',
          `unexpected argument ${JSON.stringify(positionals[0])}`,
        );
      }
      const { money, entries } = withDatabase(resolveDataDir(values['data-dir'], io.env), (db) => ({
        money: balances(db, OWNER_ACCOUNT_ID),
        entries: ledgerEntries(db, OWNER_ACCOUNT_ID, { limit: RECENT_ENTRIES }),
      }));
      if (values.json === true) {
        io.stdout(
          JSON.stringify(
            {
              ...money,
              balance_usd: microToUsd(money.balance_micro),
              held_usd: microToUsd(money.held_micro),
              available_usd: microToUsd(money.available_micro),
              entries,
            },
            null,
            2,
          ),
        );
        return;
      }
      io.stdout(`balance    ${formatUsd(money.balance_micro)}`);
      io.stdout(`held       ${formatUsd(money.held_micro)}`);
      io.stdout(`available  ${formatUsd(money.available_micro)}`);
      io.stdout('');
      io.stdout(`last ${RECENT_ENTRIES} ledger entries:`);
      for (const line of formatTable(
        ['ID', 'DATE (UTC)', 'KIND', 'AMOUNT', 'MEMO'],
        entries.map((e) => [String(e.id), shortTime(e.created_at), e.kind, signed(e), e.memo]),
      )) {
        io.stdout(line);
      }
      return;
    }
    default:
      throw new AppError(
        'invalid_request',
        sub === undefined
          ? `svc credits needs a subcommand\n\n${CREDITS_USAGE}`
          : `unknown credits subcommand ${JSON.stringify(sub)}\n\n${CREDITS_USAGE}`,
      );
  }
}
