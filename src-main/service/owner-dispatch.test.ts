import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetSummary, ImportPreview, RowsPage } from '../../src-shared/owner/datasets.ts';
import { ServerStatus } from '../../src-shared/owner-api.ts';
import { builtinBackend } from '../engine/builtin/backend.ts';
import { openDatabase } from '../store/db.ts';
import { createServiceContext } from './context.ts';
import { OwnerEvents } from './owner-events.ts';
import { dispatchOwnerCall, isOwnerMethod } from './owner-dispatch.ts';
import { createOwnerHandlers } from './owner-handlers.ts';

const GSM8K = join(
  import.meta.dirname,
  '..',
  '..',
  'resources',
  'datasets',
  'gsm8k_test_first300.jsonl',
);

const handlers = (events = new OwnerEvents()) =>
  createOwnerHandlers(createServiceContext(openDatabase(':memory:'), ':memory:', '1.2.3'), {
    address: () => ({ host: '127.0.0.1', port: null, url: null }),
    emit: (event) => events.emit(event),
    backend: () => builtinBackend,
    uploads: {
      pathOf: () => {
        throw new Error('no uploads');
      },
    },
    downloads: { register: () => '/owner-download/x' },
    tempDir: mkdtempSync(join(tmpdir(), 'svc-dispatch-')),
  });

describe('dispatchOwnerCall (the IPC edge)', () => {
  it('returns the value on success', async () => {
    const result = await dispatchOwnerCall(handlers(), 'serverStatus', {});
    expect(result.ok).toBe(true);
    if (result.ok) {
      const status = ServerStatus.parse(result.value);
      expect(status.running).toBe(false);
      expect(status.version).toBe('1.2.3');
    }
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
    const events = new OwnerEvents();
    const seen: string[] = [];
    events.subscribe((event) => seen.push(event.type));
    const h = handlers(events);
    const preview = await dispatchOwnerCall(h, 'importPreview', { source: { path: GSM8K } });
    expect(preview.ok && ImportPreview.parse(preview.value).detected).toBe('gsm8k');
    const imported = await dispatchOwnerCall(h, 'importDataset', {
      source: { path: GSM8K },
      shape: 'gsm8k',
      name: 'GSM8K',
    });
    if (!imported.ok) throw new Error(imported.error.message);
    const summary = DatasetSummary.parse(imported.value);
    expect(summary.rows).toBe(300);
    expect(seen).toContain('import');
    // no filter and no sort given: the contract's defaults apply
    const rows = await dispatchOwnerCall(h, 'datasetRows', {
      dataset_id: summary.id,
      offset: 10,
      limit: 2,
    });
    expect(rows.ok && RowsPage.parse(rows.value).rows.map((r) => r.index)).toEqual([10, 11]);
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
