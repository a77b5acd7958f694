import { create } from 'zustand';
import type { AppError } from '../../src-shared/errors.ts';
import type { ImportPreview, ImportSource, ShapeId } from '../../src-shared/owner/datasets.ts';
import type { FieldMapping, OasstPaths } from '../../src-shared/schemas/mapping.ts';
import type { OwnerEvent } from '../../src-shared/owner-api.ts';
import { api, sourceForFile } from '../api/client.ts';
import { useGrid } from './grid.ts';

/** An import in progress: the file, its preview (shape the user may correct), then the import itself. */
interface ImportState {
  fileName: string | null;
  source: ImportSource | null;
  preview: ImportPreview | null;
  shape: ShapeId | null;
  /** OpenAssistant trees: a row per tree (best path) or per path. */
  paths: OasstPaths;
  busy: boolean;
  progress: { rows: number; errors: number; fraction: number } | null;
  /** The name the import was started with: its events are the ones that carry it. */
  committedName: string | null;
  /**
   * The dataset being imported, once its first rows can be read: the dialog
   * has handed over to the dataset's grid, which shows them while the rest arrives.
   */
  datasetId: string | null;
  error: AppError | null;
  /** Files dropped together wait here and are imported one after another. */
  queue: File[];
  begin: (file: File) => Promise<void>;
  /** Starts the first file now (or after the import in progress) and queues the rest. */
  enqueue: (files: File[]) => void;
  chooseShape: (shape: ShapeId) => Promise<void>;
  /** Maps the rows with a mapping of the user's (the preview is read again). */
  chooseMapping: (mapping: FieldMapping) => Promise<void>;
  choosePaths: (paths: OasstPaths) => Promise<void>;
  commit: (name: string) => Promise<string | null>;
  /** An `import` event: progress, and the hand-over to the grid once rows can be read. */
  imported: (event: Extract<OwnerEvent, { type: 'import' }>) => void;
  cancel: () => void;
}

/** No import in progress. */
const IDLE = {
  fileName: null,
  source: null,
  preview: null,
  shape: null,
  paths: 'best',
  busy: false,
  error: null,
  progress: null,
  committedName: null,
  datasetId: null,
} as const satisfies Partial<ImportState>;

export const useImport = create<ImportState>()((set, get) => ({
  ...IDLE,
  queue: [],
  enqueue: (files) => {
    if (get().fileName) {
      set((s) => ({ queue: [...s.queue, ...files] }));
      return;
    }
    const [first, ...rest] = files;
    set((s) => ({ queue: [...s.queue, ...rest] }));
    if (first) void get().begin(first);
  },
  begin: async (file) => {
    set({
      ...IDLE,
      fileName: file.name,
      busy: true,
    });
    try {
      const source = await sourceForFile(file);
      const preview = await api.importPreview({ source });
      set({ source, preview, shape: preview.shape, busy: false });
    } catch (error) {
      set({ error: error as AppError, busy: false });
    }
  },
  chooseShape: async (shape) => {
    const { source, paths } = get();
    if (!source) return;
    set({ busy: true, shape });
    try {
      set({ preview: await api.importPreview({ source, shape, paths }), busy: false });
    } catch (error) {
      set({ error: error as AppError, busy: false });
    }
  },
  chooseMapping: async (mapping) => {
    const { source } = get();
    if (!source) return;
    set({ busy: true, shape: 'custom' });
    try {
      set({ preview: await api.importPreview({ source, mapping }), busy: false, error: null });
    } catch (error) {
      set({ error: error as AppError, busy: false });
    }
  },
  choosePaths: async (paths) => {
    const { source, shape } = get();
    if (!source || !shape) return;
    set({ busy: true, paths });
    try {
      set({ preview: await api.importPreview({ source, shape, paths }), busy: false, error: null });
    } catch (error) {
      set({ error: error as AppError, busy: false });
    }
  },
  commit: async (name) => {
    const { source, shape, preview, paths, busy } = get();
    // Not while a preview is in flight: its mapping would not be the one imported.
    if (!source || !shape || busy) return null;
    set({ busy: true, progress: { rows: 0, errors: 0, fraction: 0 }, committedName: name });
    try {
      // A mapping made or guessed in the preview goes along; a shape's own is the shape.
      const mapping = shape === 'custom' ? (preview?.mapping ?? undefined) : undefined;
      const dataset = await api.importDataset({
        source,
        shape,
        name,
        ...(mapping ? { mapping } : {}),
        ...(shape === 'oasst' ? { paths } : {}),
      });
      const handedOver = get().datasetId !== null;
      set(IDLE);
      const grid = useGrid.getState();
      if (!handedOver) {
        await grid.loadDatasets();
        useGrid.getState().openDataset(dataset.id);
      } else if (grid.datasetId === dataset.id) {
        // Handed over: the grid is the dataset's already. Its last import event may have come
        // before the grid was (a file of a few batches): the rows and the list are read again.
        grid.refresh();
      } else {
        // The user went elsewhere meanwhile, or the grid is still opening: the list is read again.
        void grid.loadDatasets();
      }
      next();
      return dataset.id;
    } catch (error) {
      // A failed import keeps nothing: its grid, if shown, goes, and the dialog says why. One
      // stopped by a delete (its "Stop and discard") was wanted gone: nothing to say.
      const shown = get().datasetId;
      const stopped = (error as AppError).code === 'cancelled';
      set({
        ...(stopped ? IDLE : { error: error as AppError, busy: false, progress: null }),
        datasetId: null,
      });
      if (shown !== null) {
        if (useGrid.getState().datasetId === shown) useGrid.getState().openDataset(null);
        void useGrid.getState().loadDatasets();
      }
      // Files dropped together: the next one goes on after a stopped one.
      if (stopped) next();
      return null;
    }
  },
  imported: (event) => {
    const { busy, committedName, datasetId } = get();
    if (!busy || event.asked_name !== committedName || event.done) return;
    set({
      progress: {
        rows: event.rows,
        errors: event.errors,
        fraction: event.bytes_total > 0 ? event.bytes_read / event.bytes_total : 0,
      },
    });
    // The first rows are in: show them in the grid while the rest imports.
    if (datasetId === null && event.rows > 0) {
      set({ datasetId: event.dataset_id });
      // Only if nobody moved the grid while the list was read: a person who opened a dataset
      // meanwhile (this one included, perhaps filtered already) keeps what they see.
      const before = useGrid.getState().datasetId;
      void useGrid
        .getState()
        .loadDatasets()
        .then(() => {
          const now = useGrid.getState().datasetId;
          if (now === before && now !== event.dataset_id) {
            useGrid.getState().openDataset(event.dataset_id);
          }
        });
    }
  },
  cancel: () => {
    set(IDLE);
    next();
  },
}));

/** The next queued file, once the dialog is free. */
function next(): void {
  const [file, ...rest] = useImport.getState().queue;
  if (!file) return;
  useImport.setState({ queue: rest });
  void useImport.getState().begin(file);
}
