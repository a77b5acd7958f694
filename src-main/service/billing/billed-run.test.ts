import { describe, expect, it } from 'vitest';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import { openDatabase } from '../../store/db.ts';
import { openBilling } from './billed-run.ts';
import { balances, ledgerEntries } from './billing.ts';
import { createServiceContext } from '../context/service-context.ts';
import { createKey } from './keys.ts';
import type { OperationRequest } from '../runs/contract.ts';

const request = {
  operation: 'fix',
  samples: [{ task_type: 'text', text: 'Mail jo.park@gmail.com today.' }],
  config: {},
} as unknown as OperationRequest;

function setUp() {
  const db = openDatabase(':memory:');
  const ctx = createServiceContext(db, ':memory:', '0.0.0-test');
  const keyId = createKey(db, { name: 'test' }).record.id;
  return { db, ctx, caller: { accountId: 1, keyId, source: 'http' as const } };
}

describe('a billed request', () => {
  it('settles only after the body is rendered: a render that fails is never charged', async () => {
    const { db, ctx, caller } = setUp();
    const before = balances(db, 1);
    const billing = openBilling(ctx, caller, 'req_render_fails');
    await expect(
      billing.run(request, { backend: builtinBackend }, () => {
        throw new RangeError('Maximum call stack size exceeded');
      }),
    ).rejects.toThrow(RangeError);
    expect(balances(db, 1)).toEqual(before);
    const [last] = ledgerEntries(db, 1, { limit: 1 });
    expect(last?.kind).toBe('release');
    expect(ledgerEntries(db, 1, { limit: 10 }).some((e) => e.kind === 'charge')).toBe(false);
  });

  it('a rendered body is returned and charged once, at the price the body states', async () => {
    const { db, ctx, caller } = setUp();
    const before = balances(db, 1);
    const billing = openBilling(ctx, caller, 'req_render_ok');
    const body = await billing.run(request, { backend: builtinBackend }, (billed) => ({
      charged: billed.chargedMicro,
      samples: billed.result.data.length,
    }));
    expect(body.samples).toBe(1);
    expect(balances(db, 1).balance_micro).toBe(before.balance_micro - body.charged);
    expect(ledgerEntries(db, 1, { limit: 1 })[0]).toMatchObject({
      kind: 'charge',
      amount_micro: body.charged,
    });
  });
});
