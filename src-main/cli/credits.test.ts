import { describe, expect, it } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import { placeHold, settleHold } from '../service/billing/billing.ts';
import { openDatabase } from '../store/db.ts';
import { creditsCommand, parseUsdAmount } from './credits.ts';
import { capture, rejection, tempDirs } from './testing/cli-test-kit.ts';

const tempDir = tempDirs('svc-cli-credits-');

describe('parseUsdAmount', () => {
  it('turns dollars with up to two decimals into exact micro-USD', () => {
    expect(parseUsdAmount('10')).toBe(10_000_000);
    expect(parseUsdAmount('2.50')).toBe(2_500_000);
    expect(parseUsdAmount('2.5')).toBe(2_500_000);
    expect(parseUsdAmount('0.01')).toBe(10_000);
    expect(parseUsdAmount('0.29')).toBe(290_000); // 0.29 * 1e6 is 289999.99... in floats
    expect(parseUsdAmount('1000000')).toBe(1_000_000_000_000);
  });

  it.each([
    '0',
    '0.00',
    '-5',
    '1.234',
    'abc',
    '',
    '1e3',
    '.5',
    '5.',
    '+5',
    '0x10',
    '1,000',
    '1000001',
  ])('rejects %j with invalid_request', (text) => {
    expect(() => parseUsdAmount(text)).toThrow(AppError);
    try {
      parseUsdAmount(text);
    } catch (error) {
      expect((error as AppError).code).toBe('invalid_request');
    }
  });
});

describe('svc credits', () => {
  it('adds credit and shows balance, held, available and the recent entries', async () => {
    const dir = tempDir();
    const add = capture();
    await creditsCommand(['add', '10', '--data-dir', dir], add.io);
    expect(add.out).toEqual(['added $10.00; balance $15.00, available $15.00']);
    await creditsCommand(['add', '2.50', '--data-dir', dir], capture().io);

    const db = openDatabase(dir);
    const done = placeHold(db, { accountId: 1, micro: 10_000, requestId: 'r1' });
    settleHold(db, done, { chargeMicro: 30_000 });
    placeHold(db, { accountId: 1, micro: 10_000, requestId: 'r2' });
    db.close();

    const show = capture();
    await creditsCommand(['show', '--data-dir', dir], show.io);
    expect(show.out.slice(0, 3)).toEqual([
      'balance    $17.47',
      'held       $0.01',
      'available  $17.46',
    ]);
    expect(show.out[5]).toMatch(/^ID\s+DATE \(UTC\)\s+KIND\s+AMOUNT\s+MEMO$/);
    const rows = show.out.slice(6);
    expect(rows).toHaveLength(6);
    expect(rows[0]).toMatch(/^6\s+\S+ \S+\s+hold\s+\$0\.01\s+request started$/);
    expect(rows[1]).toMatch(/charge\s+-\$0\.03\s+request finished$/);
    expect(rows[3]).toMatch(/grant\s+\+\$2\.50\s+added with svc credits add$/);
    expect(rows[5]).toMatch(/^1\s.*grant\s+\+\$5\.00\s+welcome credit$/);

    const json = capture();
    await creditsCommand(['show', '--json', '--data-dir', dir], json.io);
    const parsed = JSON.parse(json.out.join('\n')) as Record<string, unknown> & {
      entries: unknown[];
    };
    expect(parsed).toMatchObject({
      balance_micro: 17_470_000,
      held_micro: 10_000,
      available_micro: 17_460_000,
      balance_usd: 17.47,
      held_usd: 0.01,
      available_usd: 17.46,
    });
    expect(parsed.entries).toHaveLength(6);
  });

  it('shows only the last 10 entries', async () => {
    const dir = tempDir();
    for (let i = 0; i < 12; i++)
      await creditsCommand(['add', '1', '--data-dir', dir], capture().io);
    const show = capture();
    await creditsCommand(['show', '--data-dir', dir], show.io);
    expect(show.out.slice(6)).toHaveLength(10);
    expect(show.out[0]).toBe('balance    $17.00');
  });

  it('rejects bad amounts and usage with invalid_request and writes nothing', async () => {
    const dir = tempDir();
    for (const argv of [
      ['add', '0'],
      ['add', '-5'],
      ['add', '1.234'],
      ['add', 'abc'],
      ['add'],
      ['add', '1', '2'],
      ['show', 'extra'],
      ['refund', '1'],
      [],
    ]) {
      const error = await rejection(creditsCommand([...argv, '--data-dir', dir], capture().io));
      expect(error.code, argv.join(' ')).toBe('invalid_request');
    }
    const show = capture();
    await creditsCommand(['show', '--data-dir', dir], show.io);
    expect(show.out[0]).toBe('balance    $5.00');
  });
});
