/** eld's identifier, loaded once (its tables take a third of a second to load). */
export async function loadIdentifier(): Promise<(typeof import('eld/small'))['eld']> {
  return (await import('eld/small')).eld;
}

/** The languages of texts, counted: ISO 639-1 codes, `und` where none is reliably identified. */
export async function countLanguages(texts: readonly string[]): Promise<[string, number][]> {
  const eld = await loadIdentifier();
  const counts = new Map<string, number>();
  for (const text of texts) {
    const result = eld.detect(text);
    const language = result.language && result.isReliable() ? result.language : 'und';
    counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}
