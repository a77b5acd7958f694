import { create } from 'zustand';
import type { AppError } from '../../src-shared/errors.ts';
import type { ImportPreview, ImportSource, ShapeId } from '../../src-shared/owner/datasets.ts';
import type { FieldMapping, OasstPaths } from '../../src-shared/schemas/mapping.ts';
import { api, sourceForFile } from '../api/client.ts';

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
  setProgress: (progress: ImportState['progress']) => void;
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
    const { source, shape, preview, paths } = get();
    if (!source || !shape) return null;
    set({ busy: true, progress: { rows: 0, errors: 0, fraction: 0 } });
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
      set(IDLE);
      next();
      return dataset.id;
    } catch (error) {
      set({ error: error as AppError, busy: false, progress: null });
      return null;
    }
  },
  setProgress: (progress) => set({ progress }),
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
