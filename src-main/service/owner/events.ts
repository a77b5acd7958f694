import type { OwnerEvent } from '../../../src-shared/owner-api.ts';

export type OwnerEventListener = (event: OwnerEvent) => void;

/**
 * What main pushes to the UI (import and run progress), fanned out to every
 * subscriber: the HTTP event stream (SSE) for browsers, IPC for Electron's
 * window. A listener that throws is reported and never stops the others.
 */
export class OwnerEvents {
  readonly #listeners = new Set<OwnerEventListener>();

  emit(event: OwnerEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error('an owner event listener failed:', error);
      }
    }
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: OwnerEventListener): () => void {
    const own = (event: OwnerEvent): void => listener(event);
    this.#listeners.add(own);
    return () => this.#listeners.delete(own);
  }
}
