import type { z } from 'zod';
import type {
  OwnerApi,
  OwnerEvent,
  OwnerMethod,
  OwnerOutput,
} from '../../../src-shared/owner-api.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import type { Uploads } from '../datasets/source.ts';
import type { Answer } from './encoded-json.ts';

/*
 * What an owner handler is and what it needs, apart from the map that joins
 * them (handlers.ts), so that each handler file can name these types without
 * importing the map that imports it.
 */

/** Where the embedded HTTP server listens right now (null while it is off). */
export interface ServerAddress {
  host: string;
  port: number | null;
  url: string | null;
  /** Why the server is not running when it should be (e.g. its port is taken). */
  error?: string | null;
}

/** What the owner handlers need from the shell that hosts them (server or Electron). */
export interface OwnerDeps {
  address: () => ServerAddress;
  /** Pushes import and run progress to the UI (an `OwnerEvents`' emit). */
  emit: (event: OwnerEvent) => void;
  /** The engine backend in force, read per batch. */
  backend: () => EngineBackend;
  /** Uploaded files by id (the browser transport). */
  uploads: Uploads;
  /** Makes an exported file downloadable; returns its URL path. */
  downloads: { register(path: string, fileName: string): string };
  /** Where exports without a path are written. */
  tempDir: string;
}

/** The methods whose answer may come as JSON already encoded by another thread (encoded-json.ts). */
export type EncodedMethod = 'datasetRow' | 'editRow';

/** What a handler answers: its output, or for an `EncodedMethod` that output encoded. */
export type OwnerAnswer<M extends OwnerMethod> = M extends EncodedMethod
  ? Answer<OwnerOutput<M>>
  : OwnerOutput<M>;

/**
 * A handler receives its input validated against `ownerApi`, defaults filled
 * in, and answers as `OwnerAnswer` says: the edges send either form.
 */
export type OwnerHandlers = {
  [M in OwnerMethod]: (input: z.output<OwnerApi[M]['input']>) => Promise<OwnerAnswer<M>>;
};
