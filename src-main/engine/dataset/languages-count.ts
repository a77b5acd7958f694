/** The languages of texts, counted: ISO 639-1 codes, `und` where none is reliably identified. */
export async function countLanguages(texts: readonly string[]): Promise<[string, number][]> {
  const { eld } = await import('eld/small');
  const counts = new Map<string, number>();
  for (const text of texts) {
    const result = eld.detect(text);
    const language = result.language && result.isReliable() ? result.language : 'und';
    counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}
