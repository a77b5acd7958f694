import { loadIdentifierFast, type Identifier } from './eld-tables.ts';

let loaded: Promise<Identifier> | undefined;

/** eld's identifier, loaded once a thread (see eld-tables.ts for how its tables are read). */
export function loadIdentifier(): Promise<Identifier> {
  loaded ??= loadIdentifierFast().then(
    ({ eld }) => eld,
    (error: unknown) => {
      loaded = undefined; // asked again, it is tried again
      throw error;
    },
  );
  return loaded;
}

/** Each text's language: an ISO 639-1 code, `und` where none is reliably identified. */
export async function labelLanguages(texts: readonly string[]): Promise<string[]> {
  const eld = await loadIdentifier();
  return texts.map((text) => {
    const result = eld.detect(text);
    return result.language && result.isReliable() ? result.language : 'und';
  });
}

/**
 * Labels counted, most first; a tie keeps the order the labels were first
 * met in (the sort is stable), so the same labels in the same order always
 * count alike, whichever thread or process identified them.
 */
export function countLabels(labels: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const language of labels) counts.set(language, (counts.get(language) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

/** The languages of texts, counted (see `labelLanguages`, `countLabels`). */
export async function countLanguages(texts: readonly string[]): Promise<[string, number][]> {
  return countLabels(await labelLanguages(texts));
}
