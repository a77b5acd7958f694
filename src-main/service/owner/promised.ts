/** A synchronous piece of work as a promise: its value, or its error as a rejection. */
export function promised<T>(work: () => T): Promise<T> {
  // The executor runs at once; a throw in it rejects the promise.
  return new Promise((resolve) => resolve(work()));
}
