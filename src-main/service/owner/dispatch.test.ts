import { describe, expect, it } from 'vitest';
import { DatasetSummary, ImportPreview, RowsPage } from '../../../src-shared/owner/datasets.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';
import { ServerStatus, type IpcResult } from '../../../src-shared/owner-api.ts';
import { createHarness, dataset } from '../datasets/testing/harness.ts';
import { dispatchOwnerCall, isOwnerMethod } from './dispatch.ts';

const GSM8K = dataset('gsm8k_test_first300.jsonl');

const handlers = () => createHarness({ version: '1.2.3' }).handlers;

/** A successful result's value, as the page reads it (see ipc-transport.ts). */
const valueOf = (result: IpcResult<unknown>): unknown => {
  if (!result.ok) throw new Error(result.error.message);
  return 'json' in result ? parseJsonExact(new TextDecoder().decode(result.json)) : result.value;
};

describe('dispatchOwnerCall (the IPC edge)', () => {
  it('returns the value on success', async () => {
    const result = await dispatchOwnerCall(handlers(), 'serverStatus', {});
    expect(result.ok).toBe(true);
    const status = ServerStatus.parse(valueOf(result));
    expect(status.running).toBe(false);
    expect(status.version).toBe('1.2.3');
  });
  it('returns invalid input as an error value, never throwing', async () => {
    const result = await dispatchOwnerCall(handlers(), 'serverStatus', { nope: true });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
  it('reports an unexpected failure as internal_error', async () => {
    const broken = { ...handlers(), serverStatus: () => Promise.reject(new Error('boom')) };
    const result = await dispatchOwnerCall(broken, 'serverStatus', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'internal_error' } });
  });
  it('knows its methods', () => {
    expect(isOwnerMethod('serverStatus')).toBe(true);
    expect(isOwnerMethod('importDataset')).toBe(true);
    expect(isOwnerMethod('__proto__')).toBe(false);
  });
});

describe('dispatchOwnerCall over the dataset methods', () => {
  it('previews, imports (with progress events) and pages a dataset, defaults filled in', async () => {
    const harness = createHarness({ version: '1.2.3' });
    const h = harness.handlers;
    const preview = await dispatchOwnerCall(h, 'importPreview', { source: { path: GSM8K } });
    expect(ImportPreview.parse(valueOf(preview)).detected).toBe('gsm8k');
    const imported = await dispatchOwnerCall(h, 'importDataset', {
      source: { path: GSM8K },
      shape: 'gsm8k',
      name: 'GSM8K',
    });
    const summary = DatasetSummary.parse(valueOf(imported));
    expect(summary.rows).toBe(300);
    expect(harness.received.map((event) => event.type)).toContain('import');
    // no filter and no sort given: the contract's defaults apply
    const rows = await dispatchOwnerCall(h, 'datasetRows', {
      dataset_id: summary.id,
      offset: 10,
      limit: 2,
    });
    expect(RowsPage.parse(valueOf(rows)).rows.map((r) => r.index)).toEqual([10, 11]);
  });

  it('returns the errors of the handlers as values', async () => {
    const h = handlers();
    expect(
      await dispatchOwnerCall(h, 'datasetRow', { dataset_id: 'ds_x', index: 0 }),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(
      await dispatchOwnerCall(h, 'startRun', {
        dataset_id: 'ds_x',
        operation: 'refine',
        scope: { kind: 'all' },
        config: { fix: { max_attempts: 9 } },
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(
      await dispatchOwnerCall(h, 'updateSettings', {
        limits: {
          cost_cap_usd_per_request: -1,
          requests_per_minute_native: 1,
          requests_per_minute_v1: 1,
        },
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});
