/**
 * Folds consecutive entries of one request into one line: an app run is
 * charged (and its history kept) batch by batch, and a million-row run would
 * otherwise fill the screen with hundreds of lines of one run.
 */
export interface Grouped<T> {
  first: T;
  entries: T[];
}

export function groupByRequest<T extends { request_id: string | null }>(
  items: readonly T[],
  sameKind: (a: T, b: T) => boolean = () => true,
): Grouped<T>[] {
  const groups: Grouped<T>[] = [];
  for (const item of items) {
    const last = groups.at(-1);
    if (
      last &&
      item.request_id !== null &&
      last.first.request_id === item.request_id &&
      sameKind(last.first, item)
    ) {
      last.entries.push(item);
    } else {
      groups.push({ first: item, entries: [item] });
    }
  }
  return groups;
}
