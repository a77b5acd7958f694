import { create } from 'zustand';
import type { AppError } from '../../src-shared/errors.ts';
import type { ImportPreview, ImportSource, ShapeId } from '../../src-shared/owner/datasets.ts';
import { api, sourceForFile } from '../api/client.ts';

/** An import in progress: the file, its preview (shape the user may correct), then the import itself. */
interface ImportState {
  fileName: string | null;
  source: ImportSource | null;
  preview: ImportPreview | null;
  shape: ShapeId | null;
  busy: boolean;
  progress: { rows: number; errors: number; fraction: number } | null;
  error: AppError | null;
  begin: (file: File) => Promise<void>;
  chooseShape: (shape: ShapeId) => Promise<void>;
  commit: (name: string) => Promise<string | null>;
  setProgress: (progress: ImportState['progress']) => void;
  cancel: () => void;
}

export const useImport = create<ImportState>()((set, get) => ({
  fileName: null,
  source: null,
  preview: null,
  shape: null,
  busy: false,
  progress: null,
  error: null,
  begin: async (file) => {
    set({
      fileName: file.name,
      source: null,
      preview: null,
      shape: null,
      busy: true,
      error: null,
      progress: null,
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
    const { source } = get();
    if (!source) return;
    set({ busy: true, shape });
    try {
      set({ preview: await api.importPreview({ source, shape }), busy: false });
    } catch (error) {
      set({ error: error as AppError, busy: false });
    }
  },
  commit: async (name) => {
    const { source, shape } = get();
    if (!source || !shape) return null;
    set({ busy: true, progress: { rows: 0, errors: 0, fraction: 0 } });
    try {
      const dataset = await api.importDataset({ source, shape, name });
      set({
        fileName: null,
        source: null,
        preview: null,
        shape: null,
        busy: false,
        progress: null,
      });
      return dataset.id;
    } catch (error) {
      set({ error: error as AppError, busy: false, progress: null });
      return null;
    }
  },
  setProgress: (progress) => set({ progress }),
  cancel: () =>
    set({
      fileName: null,
      source: null,
      preview: null,
      shape: null,
      busy: false,
      error: null,
      progress: null,
    }),
}));
