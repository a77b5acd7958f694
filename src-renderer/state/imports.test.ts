import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatasetSummary } from '../../src-shared/owner/datasets.ts';
import type { OwnerEvent } from '../../src-shared/owner-api.ts';

/** The dataset list's answer, held until the test lets it land. */
let releaseList: () => void = () => undefined;

vi.mock('../api/client.ts', () => ({
  sourceForFile: vi.fn(),
  api: {
    listDatasets: () =>
      new Promise<DatasetSummary[]>((resolve) => {
        releaseList = () => resolve([]);
      }),
    datasetRows: () => new Promise(() => undefined),
    listRuns: () => new Promise(() => undefined),
  },
}));

const { useImport } = await import('./imports.ts');
const { useGrid } = await import('./grid.ts');

const firstRows: Extract<OwnerEvent, { type: 'import' }> = {
  type: 'import',
  dataset_id: 'ds_new',
  name: 'csqa',
  asked_name: 'csqa',
  rows: 12,
  errors: 0,
  bytes_read: 100,
  bytes_total: 100,
  done: false,
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the hand-over of an import to the grid', () => {
  beforeEach(() => {
    useImport.setState({ busy: true, committedName: 'csqa', datasetId: null });
    useGrid.setState({ datasetId: null, filter: {} });
  });

  it('opens the dataset once its first rows are in', async () => {
    useImport.getState().imported(firstRows);
    releaseList();
    await settle();
    expect(useGrid.getState().datasetId).toBe('ds_new');
  });

  it('opens a dataset named "NAME (2)" as the import of NAME it is', async () => {
    useImport.getState().imported({ ...firstRows, name: 'csqa (2)' });
    releaseList();
    await settle();
    expect(useGrid.getState().datasetId).toBe('ds_new');
    useImport.setState({ busy: true, committedName: 'csqa', datasetId: null });
    useGrid.setState({ datasetId: null });
    // Another import's events are not this one's.
    useImport.getState().imported({ ...firstRows, dataset_id: 'ds_x', asked_name: 'other' });
    await settle();
    expect(useImport.getState().datasetId).toBeNull();
  });

  it('keeps the view of a person who opened and filtered it while the list was read', async () => {
    useImport.getState().imported(firstRows);
    useGrid.getState().openDataset('ds_new');
    useGrid.getState().setFilter({ changed: true });
    releaseList();
    await settle();
    expect(useGrid.getState().filter).toEqual({ changed: true });
  });

  it('leaves a person on the other dataset they opened meanwhile', async () => {
    useImport.getState().imported(firstRows);
    useGrid.getState().openDataset('ds_other');
    releaseList();
    await settle();
    expect(useGrid.getState().datasetId).toBe('ds_other');
  });
});
