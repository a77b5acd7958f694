import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// electron-vite only finds src/main, src/preload and src/renderer by itself;
// this project's layout (src-main, src-renderer) is named here explicitly.
const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(root, 'src-main/electron/main.ts'),
          // A worker thread's script is a file of its own (see engine/dataset/languages.ts).
          'languages-worker': resolve(root, 'src-main/engine/dataset/languages-worker.ts'),
          // The engine pool's worker threads (see service/runs/pool/pooled.ts).
          'engine-worker': resolve(root, 'src-main/service/runs/pool/worker.ts'),
          // A dataset scan's reading and computing (see service/dataset-checks/sqlite.ts).
          'scan-worker': resolve(root, 'src-main/service/dataset-checks/scan-worker.ts'),
          // A dataset scan's slice workers, started by its worker (see dataset-checks/scan-slices.ts).
          'scan-slice-worker': resolve(
            root,
            'src-main/service/dataset-checks/scan-slice-worker.ts',
          ),
          // The grid's queries and its search index's builder (see service/datasets/grid-queries.ts).
          'grid-worker': resolve(root, 'src-main/service/datasets/grid-worker.ts'),
          'search-index-worker': resolve(root, 'src-main/service/datasets/search-index-worker.ts'),
          // A part of the search index, started by the index's worker (see store/search-index.ts).
          'search-index-part-worker': resolve(
            root,
            'src-main/service/datasets/search-index-part-worker.ts',
          ),
          // An import's WAL checkpoint (see service/datasets/wal-checkpoint.ts).
          'wal-checkpoint-worker': resolve(
            root,
            'src-main/service/datasets/wal-checkpoint-worker.ts',
          ),
          // The app database's WAL checkpointed off the main thread (see datasets/wal-keeper.ts).
          'wal-keeper-worker': resolve(root, 'src-main/service/datasets/wal-keeper-worker.ts'),
          // An import's file, read and mapped (see service/datasets/import-reader.ts).
          'import-reader-worker': resolve(
            root,
            'src-main/service/datasets/import-reader-worker.ts',
          ),
          // An export, written from a read-only connection (see service/datasets/export-thread.ts).
          'export-worker': resolve(root, 'src-main/service/datasets/export-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // The sandboxed preload cannot require packages: bundle what it imports.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'src-main/electron/preload.ts') },
        // A sandboxed preload cannot `require` chunks, so it must be one CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rollupOptions: { input: { index: resolve(root, 'src-renderer/index.html') } },
    },
  },
});
