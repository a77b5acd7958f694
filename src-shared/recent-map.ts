/**
 * Sets `key` to `value` in `map` as its most recently used entry, then drops
 * the least recently used ones past `max`: a Map iterates in insertion order,
 * so deleting before setting puts the key last and the oldest comes first.
 * The one bounded cache the app's caches share (prepared statements, the
 * grid's pages, kept edits).
 */
export function setMostRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}
