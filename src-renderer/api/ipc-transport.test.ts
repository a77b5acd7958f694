import { describe, expect, it } from 'vitest';
import type { OwnerBridge } from '../../src-shared/owner-api.ts';
import { ipcClient } from './ipc-transport.ts';

/** The Electron transport over a bridge: a value, a value sent as JSON bytes, an error. */
describe('ipcClient', () => {
  const detail = { index: 1, original: { id: 12345678901234567890n, text: 'a large row' } };
  const bridge = {
    datasetRow: () =>
      Promise.resolve({ ok: true, json: new TextEncoder().encode(JSON.stringify(detail)) }),
    datasetRows: () => Promise.resolve({ ok: true, value: { total: 0, rows: [] } }),
    deleteDataset: () =>
      Promise.resolve({ ok: false, error: { code: 'not_found', message: 'no dataset ds_x' } }),
  } as unknown as OwnerBridge;
  const client = ipcClient(bridge);

  it('parses a value main sent as JSON bytes, integers past 2^53 exact', async () => {
    expect(await client.datasetRow({ dataset_id: 'ds_1', index: 1 })).toEqual(detail);
  });

  it('returns a value as it came', async () => {
    expect(await client.datasetRows({ dataset_id: 'ds_1', offset: 0, limit: 10 })).toEqual({
      total: 0,
      rows: [],
    });
  });

  it('throws an error value as an AppError', async () => {
    await expect(client.deleteDataset({ dataset_id: 'ds_x' })).rejects.toMatchObject({
      code: 'not_found',
      message: 'no dataset ds_x',
    });
  });
});
