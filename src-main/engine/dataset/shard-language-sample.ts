import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { LanguageReservoir } from './language-reservoir.ts';
import { labelLanguages } from './languages.ts';
import { LANGUAGE_CHARS, LANGUAGE_SAMPLE, sampleLanguageText } from './statistics.ts';

/**
 * A shard's share of the language identification of a sharded run. The run's
 * language sample (`StatisticsAccumulator`, reservoir sampling) keeps the
 * same rows whoever draws it, for its draws depend only on which samples have
 * a text and in what order: every shard reads every row of the file, so each
 * draws the whole sample as one run would, keeps the texts of its own rows
 * among them and identifies their languages. `svc merge` then counts the
 * shards' labels instead of identifying 5,000 texts itself: on many cores
 * that was the longest step of a merge (~1.3 s of one thread), now spread
 * over the shards, a few hundred texts each.
 */
export class ShardLanguageSample {
  readonly #reservoir = new LanguageReservoir(LANGUAGE_SAMPLE, LANGUAGE_CHARS);

  /**
   * Every sample of the run, in order: `position` its 0-based place in the
   * run's output, `owned` whether it is this shard's.
   */
  see(sample: Sample, position: number, owned: boolean): void {
    const text = sampleLanguageText(sample);
    this.seeText(text !== undefined, position, owned, text);
  }

  /**
   * `see` of a sample whose language text (`sampleLanguageText`) was taken
   * elsewhere: whether it has one, and the text itself when it is the shard's.
   */
  seeText(hasText: boolean, position: number, owned: boolean, text = ''): void {
    if (!hasText) return;
    const slot = this.#reservoir.slotFor(position + 1);
    if (slot < 0) return;
    if (owned) this.#reservoir.keepString(slot, text, position);
    else this.#reservoir.keepLater(slot, position);
  }

  /** The languages of this shard's rows in the sample: [position, ISO 639-1 or `und`]. */
  async labels(): Promise<[number, string][]> {
    const { positions, texts } = this.#reservoir.held();
    const labels = await labelLanguages(texts);
    return positions.map((position, k) => [position, labels[k] as string]);
  }
}
