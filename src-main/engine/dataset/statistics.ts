import jStat from 'jstat';
import type {
  DatasetFinding,
  DatasetStatistics,
  LengthStats,
} from '../../../src-shared/schemas/report.ts';
import type { Sample, TaskType } from '../../../src-shared/schemas/sample.ts';
import { LanguageReservoir, type LanguageTextFetch } from './language-reservoir.ts';
import { choiceLetter } from '../../../src-shared/letters.ts';
import { duplicateKey, type DuplicateKey } from './keys.ts';
import { countLabels } from './languages-count.ts';
import { identifyLanguages } from './languages.ts';
import {
  LABEL_UNDEFINED,
  hasLanguageText,
  languageUnitsOf,
  NO_LABEL,
  TASK_TYPES,
  type PackedRecords,
  type StatisticsRecord,
} from './packed-records.ts';

/**
 * Statistics of a whole run, gathered one sample at a time in bounded memory:
 * the position of the labelled answer in multiple choice (with a chi-square
 * test against uniform), the balance of labels and answers, the length of
 * each field (a log-2 histogram), and the languages (of a uniform sample of
 * rows: language identification costs ~40 µs a text). What stands out
 * becomes a finding.
 */

/** Rows whose language is identified (a reservoir sample, so any dataset size costs the same). */
export const LANGUAGE_SAMPLE = 5000;
/** Distinct labels counted; later new labels count as one "other". */
const LABELS_KEPT = 10_000;
/** A finding needs at least this many items and this p-value. */
const MIN_ITEMS = 20;
const P_VALUE = 0.001;
/** Characters of a text read for its language. */
export const LANGUAGE_CHARS = 500;

const BIN_EDGES = Array.from({ length: 22 }, (_, i) => (i === 0 ? 0 : 2 ** (i - 1)));
/**
 * Lengths below this are counted exactly (a bin edge, so the histogram's
 * bins above it hold the rest): turns per conversation and short fields get
 * exact medians, where reading them off a doubling bin gave 63 rows of 2 turns
 * and one of 4 a "median 3".
 */
const EXACT_BELOW = 1024;

/** The lengths of one field: count, extremes, a log-2 histogram, and quantiles. */
export class Lengths {
  count = 0;
  min = Number.POSITIVE_INFINITY;
  max = 0;
  sum = 0;
  readonly bins = new Array<number>(BIN_EDGES.length).fill(0);
  readonly #exact = new Uint32Array(EXACT_BELOW);
  add(length: number): void {
    this.count++;
    if (length < EXACT_BELOW) this.#exact[length] = (this.#exact[length] ?? 0) + 1;
    this.sum += length;
    if (length < this.min) this.min = length;
    if (length > this.max) this.max = length;
    const bin =
      length === 0 ? 0 : Math.min(BIN_EDGES.length - 1, Math.floor(Math.log2(length)) + 1);
    this.bins[bin] = (this.bins[bin] ?? 0) + 1;
  }
  /**
   * The value at rank ceil(q * count): exact below EXACT_BELOW, else read off
   * the histogram (interpolated from the bin's first value to its last).
   */
  private quantile(q: number): number {
    if (this.count === 0) return 0;
    const target = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (let value = 0; value < EXACT_BELOW; value++) {
      seen += this.#exact[value] as number;
      if (seen >= target) return value;
    }
    for (const [i, n] of this.bins.entries()) {
      const low = BIN_EDGES[i] as number;
      if (low < EXACT_BELOW || n === 0) continue;
      if (seen + n >= target) {
        const last = Math.min(this.max, (BIN_EDGES[i + 1] ?? this.max + 1) - 1);
        const within = n === 1 ? 0 : (target - seen - 1) / (n - 1);
        return Math.min(this.max, Math.max(this.min, Math.round(low + within * (last - low))));
      }
      seen += n;
    }
    return this.max;
  }
  toJSON(): LengthStats {
    const last = this.bins.findLastIndex((n) => n > 0);
    return {
      count: this.count,
      min: this.count ? this.min : 0,
      max: this.max,
      mean: this.count ? Math.round((this.sum / this.count) * 10) / 10 : 0,
      p50: this.quantile(0.5),
      p90: this.quantile(0.9),
      histogram: this.bins.slice(0, last + 1).map((count, i) => ({
        from: BIN_EDGES[i] as number,
        to: (BIN_EDGES[i + 1] ?? this.max + 1) - 1,
        count,
      })),
    };
  }
}

/** The survival function of the chi-square distribution: the p-value of a statistic. */
function chiSquareP(statistic: number, degrees: number): number {
  if (degrees <= 0) return 1;
  return Math.max(0, 1 - jStat.chisquare.cdf(statistic, degrees));
}

export type { StatisticsRecord } from './packed-records.ts';

/**
 * The text a sample's language is identified on: its prompt (the first user
 * turn, the question, the context; at most LANGUAGE_CHARS) and, while that
 * is short of LANGUAGE_ENOUGH characters, the rest of the sample in order
 * (the other turns, the answer, the choices) a line apart, up to that many;
 * undefined: it has no field to read (a conversation of no turns). The
 * prompt alone was too little text: of Alpaca's first 300 rows, "Generate a
 * random pun." was identified (reliably, said eld) as Romanian and "Convert
 * 20 inches to centimetres" as French; with their answers, English.
 * Rejecting close scores instead would have rejected short Norwegian,
 * Danish, Russian and Italian prompts identified right (their runner-up
 * scores as close).
 */
export function sampleLanguageText(sample: Sample): string | undefined {
  switch (sample.task_type) {
    case 'text':
      return sample.text.slice(0, LANGUAGE_CHARS);
    case 'multiple_choice': {
      const { context, choices } = sample;
      return toppedUp(1 + choices.length, (i) => (i === 0 ? context : (choices[i - 1] as string)));
    }
    case 'question_answer':
      return toppedUp(2, (i) => (i === 0 ? sample.question : sample.answer));
    case 'conversation': {
      const { messages } = sample;
      if (messages.length === 0) return undefined;
      const first = Math.max(
        0,
        messages.findIndex((m) => m.role === 'user'),
      );
      // The prompt, then every other turn in order.
      const turn = (i: number): string =>
        (messages[i === 0 ? first : i <= first ? i - 1 : i] as { content: string }).content;
      return toppedUp(messages.length, turn);
    }
  }
}

/**
 * Characters enough to tell a text's language, which a short prompt is
 * topped up to. No more: every row's text crosses to the scan's ordering
 * thread (packed-records.ts), so each character read costs every row, not
 * only the rows the language sample keeps.
 */
const LANGUAGE_ENOUGH = 200;

/**
 * The first non-empty of a sample's `count` parts (at most LANGUAGE_CHARS),
 * then the next ones a line apart up to LANGUAGE_ENOUGH. Parts are read by
 * position and only as far as needed: a long conversation makes no arrays.
 */
function toppedUp(count: number, partAt: (i: number) => string): string {
  const taken: string[] = [];
  let length = -1; // no line break before the first part
  for (let i = 0; i < count; i++) {
    const part = partAt(i);
    if (part === '') continue;
    const room = (taken.length === 0 ? LANGUAGE_CHARS : LANGUAGE_ENOUGH) - length - 1;
    if (room <= 0) break;
    const piece = part.slice(0, room);
    taken.push(piece);
    length += piece.length + 1;
  }
  // Joined, not concatenated: `+` makes a rope, which the packer then read a character at a
  // time about 15 times as slowly (17 ns a character) as the flat string `join` makes.
  return taken.join('\n');
}

/** What the statistics read of a sample (see StatisticsRecord). */
export function statisticsRecord(
  sample: Sample,
  keyOf: () => DuplicateKey = () => duplicateKey(sample),
): StatisticsRecord {
  const text = sampleLanguageText(sample);
  const language = text === undefined ? {} : { language: text };
  switch (sample.task_type) {
    case 'text':
      return { type: 'text', lengths: [['text', sample.text.length]], ...language };
    case 'multiple_choice': {
      const lengths: [string, number][] = [['context', sample.context.length]];
      for (const choice of sample.choices) lengths.push(['choice', choice.length]);
      const k = sample.choices.length;
      const positioned = k >= 2 && sample.answer_index >= 0 && sample.answer_index < k;
      return {
        type: 'multiple_choice',
        lengths,
        ...(positioned && { position: [sample.answer_index, k] as [number, number] }),
        label: keyOf().label,
        ...language,
      };
    }
    case 'question_answer':
      return {
        type: 'question_answer',
        lengths: [
          ['question', sample.question.length],
          ['answer', sample.answer.length],
        ],
        label: keyOf().label,
        ...language,
      };
    case 'conversation':
      return {
        type: 'conversation',
        lengths: sample.messages.map((m): [string, number] => [`${m.role} turn`, m.content.length]),
        turns: sample.messages.length,
        ...language,
      };
  }
}

export class StatisticsAccumulator {
  private samples = 0;
  private readonly taskTypes: Partial<Record<TaskType, number>> = {};
  /** Multiple choice: items whose label is at each position, and the expectation under uniform. */
  private readonly positions: number[] = [];
  private readonly expected: number[] = [];
  private positioned = 0;
  private readonly labels = new Map<string, number>();
  private otherLabels = 0;
  private labelled = 0;
  private readonly lengths = new Map<string, Lengths>();
  private readonly reservoir = new LanguageReservoir(LANGUAGE_SAMPLE, LANGUAGE_CHARS);

  /** `keyOf`: the sample's duplicate key (its label is counted), made once by the caller. */
  add(sample: Sample, keyOf: () => DuplicateKey = () => duplicateKey(sample)): void {
    this.addRecord(statisticsRecord(sample, keyOf));
  }

  /** Adds a sample by what the statistics read of it (made where the sample was, see below). */
  addRecord(record: StatisticsRecord): void {
    this.samples++;
    this.taskTypes[record.type] = (this.taskTypes[record.type] ?? 0) + 1;
    for (const [field, length] of record.lengths) this.length(field, length);
    if (record.turns !== undefined) this.turns(record.turns);
    if (record.position) this.position(record.position[0], record.position[1]);
    if (record.label !== undefined) this.label(record.label);
    if (record.language !== undefined) this.language(record.language);
  }

  /**
   * Adds a slice's records as `addRecord` adds each, in order (see
   * PackedRecords): a field's Lengths is looked up once per slice, at its
   * first use (so fields keep the order they were first met in), and a text
   * is made only for a sample the language sample keeps.
   */
  addPacked(packed: PackedRecords): void {
    const fieldStats: (Lengths | undefined)[] = [];
    let k = 0;
    for (let i = 0; i < packed.samples; i++) {
      this.samples++;
      const type = TASK_TYPES[packed.types[i] as number] as TaskType;
      this.taskTypes[type] = (this.taskTypes[type] ?? 0) + 1;
      for (const end = packed.lengthEnds[i] as number; k < end; k++) {
        const field = packed.lengthField[k] as number;
        let stats = fieldStats[field];
        if (!stats) {
          stats = this.lengthsOf(packed.fields[field] as string);
          fieldStats[field] = stats;
        }
        stats.add(packed.lengthValue[k] as number);
      }
      const turns = packed.turns[i] as number;
      if (turns >= 0) this.turns(turns);
      const index = packed.positionIndex[i] as number;
      if (index >= 0) this.position(index, packed.positionChoices[i] as number);
      const label = packed.label[i] as number;
      if (label !== LABEL_UNDEFINED)
        this.label(label === NO_LABEL ? null : (packed.labels[label] as string));
      // The text's view is made only for a row the sample keeps: one per row was most of what
      // this thread allocated while a file was scanned.
      if (hasLanguageText(packed, i)) {
        const slot = this.reservoir.slotFor(this.samples);
        if (slot < 0) continue;
        if (packed.languageElsewhere) this.reservoir.keepLater(slot, this.samples - 1);
        else {
          this.reservoir.keepUnits(
            slot,
            languageUnitsOf(packed, i) as Uint16Array,
            this.samples - 1,
          );
        }
      }
    }
  }

  private position(index: number, k: number): void {
    this.positioned++;
    this.positions[index] = (this.positions[index] ?? 0) + 1;
    for (let p = 0; p < k; p++) this.expected[p] = (this.expected[p] ?? 0) + 1 / k;
  }

  private lengthsOf(field: string): Lengths {
    let stats = this.lengths.get(field);
    if (!stats) {
      stats = new Lengths();
      this.lengths.set(field, stats);
    }
    return stats;
  }

  private length(field: string, length: number): void {
    this.lengthsOf(field).add(length);
  }

  private turns(count: number): void {
    this.lengthsOf('turns per conversation').add(count);
  }

  private label(label: string | null): void {
    if (label === null) return;
    this.labelled++;
    const count = this.labels.get(label);
    if (count !== undefined) this.labels.set(label, count + 1);
    else if (this.labels.size < LABELS_KEPT) this.labels.set(label, 1);
    else this.otherLabels++;
  }

  /** Reservoir sampling (Algorithm R): every text has the same chance to be identified. */
  /** Reservoir sampling (Algorithm R): every text has the same chance to be identified. */
  private language(clipped: string): void {
    const slot = this.reservoir.slotFor(this.samples);
    if (slot >= 0) this.reservoir.keepString(slot, clipped, this.samples - 1);
  }

  /**
   * `fetch`: the texts of rows added without them (`languageElsewhere`), by
   * their position in the run; needed only when some were. `labels`: the
   * languages of rows identified elsewhere, by position (the shards of a
   * sharded run identify their own rows of the sample, see
   * `ShardLanguageSample`); used when it has every row the sample keeps, and
   * the sample's texts are identified here otherwise.
   */
  async finish(
    fetch?: LanguageTextFetch,
    labels?: Promise<ReadonlyMap<number, string> | undefined>,
  ): Promise<{ statistics: DatasetStatistics; findings: DatasetFinding[] }> {
    const languages = await this.languageCounts(fetch, await labels);
    const findings: DatasetFinding[] = [];
    const statistics: DatasetStatistics = {
      samples: this.samples,
      task_types: this.taskTypes,
      answer_position: this.answerPosition(findings),
      labels: this.labelBalance(findings),
      lengths: Object.fromEntries([...this.lengths].map(([field, s]) => [field, s.toJSON()])),
      languages: this.languages(languages, findings),
    };
    return { statistics, findings };
  }

  /** The sample's languages counted, in its slots' order (as `identifyLanguages` counts). */
  private async languageCounts(
    fetch: LanguageTextFetch | undefined,
    known: ReadonlyMap<number, string> | undefined,
  ): Promise<[string, number][]> {
    if (known) {
      const labels = this.reservoir.positions().map((position) => known.get(position));
      if (labels.every((label) => label !== undefined)) return countLabels(labels);
    }
    await this.reservoir.fetchLater(
      fetch ??
        (() => Promise.reject(new Error('rows were added without their texts and no fetch came'))),
    );
    return identifyLanguages(this.reservoir.texts());
  }

  private answerPosition(findings: DatasetFinding[]): DatasetStatistics['answer_position'] {
    if (this.positioned === 0) return null;
    const counts = this.expected.map((_, p) => this.positions[p] ?? 0);
    const chi = counts.reduce((sum, observed, p) => {
      const expected = this.expected[p] as number;
      return expected > 0 ? sum + (observed - expected) ** 2 / expected : sum;
    }, 0);
    const degrees = counts.length - 1;
    const p = chiSquareP(chi, degrees);
    const top = counts.indexOf(Math.max(...counts));
    const result = {
      items: this.positioned,
      counts,
      expected: this.expected.map((e) => Math.round(e * 10) / 10),
      chi_square: Math.round(chi * 100) / 100,
      p_value: p,
    };
    if (this.positioned >= MIN_ITEMS && p < P_VALUE) {
      const share = (counts[top] as number) / this.positioned;
      findings.push({
        code: 'answer_position_skew',
        message:
          `option ${choiceLetter(top)} is right in ${counts[top]} of ${this.positioned} items ` +
          `(${Math.round(share * 100)}%; about ${Math.round(this.expected[top] as number)} if ` +
          `positions were uniform; chi-square ${result.chi_square}, p ${formatP(p)}): a model can ` +
          'score by position alone; shuffle the choices',
        position: top,
        items: this.positioned,
        count: counts[top],
        p_value: p,
      });
    }
    return result;
  }

  private labelBalance(findings: DatasetFinding[]): DatasetStatistics['labels'] {
    if (this.labelled === 0) return null;
    const sorted = [...this.labels].sort((a, b) => b[1] - a[1]);
    const distinct = this.labels.size + (this.otherLabels > 0 ? 1 : 0);
    const [topLabel, topCount] = sorted[0] ?? ['', 0];
    const result = {
      labelled: this.labelled,
      distinct,
      top: sorted.slice(0, 10).map(([label, count]) => ({ label, count })),
    };
    // A few labels shared by many rows (yes/no, classes) far from even: the label balance is off.
    if (this.labelled >= MIN_ITEMS && distinct >= 2 && distinct <= this.labelled / 5) {
      const expected = this.labelled / distinct;
      const chi = sorted.reduce((sum, [, n]) => sum + (n - expected) ** 2 / expected, 0);
      const p = chiSquareP(chi, distinct - 1);
      if (p < P_VALUE && topCount / this.labelled >= 2 / (distinct + 1)) {
        findings.push({
          code: 'label_imbalance',
          message:
            `"${topLabel.slice(0, 60)}" is the label of ${topCount} of ${this.labelled} rows ` +
            `(${Math.round((topCount / this.labelled) * 100)}% among ${distinct} labels; ` +
            `p ${formatP(p)} against an even split)`,
          label: topLabel,
          count: topCount,
          items: this.labelled,
          p_value: p,
        });
      }
    }
    return result;
  }

  private languages(
    counts: readonly [string, number][],
    findings: DatasetFinding[],
  ): DatasetStatistics['languages'] {
    const sampled = this.reservoir.length;
    const detected = counts.map(([language, count]) => ({ language, count }));
    const reliable = detected.filter((d) => d.language !== 'und');
    const main = reliable[0];
    const decided = reliable.reduce((sum, d) => sum + d.count, 0);
    if (main && decided >= MIN_ITEMS && main.count / decided < 0.9) {
      const others = reliable.slice(1, 4).map((d) => `${d.language} ${d.count}`);
      findings.push({
        code: 'mixed_languages',
        message:
          `${Math.round((1 - main.count / decided) * 100)}% of the rows identified are not in ` +
          `${main.language} (${others.join(', ')}${sampled < this.samples ? `, of a sample of ${sampled}` : ''})`,
      });
    }
    return { sampled, detected };
  }
}

const formatP = (p: number): string => (p < 1e-6 ? '< 0.000001' : `= ${p.toPrecision(2)}`);
