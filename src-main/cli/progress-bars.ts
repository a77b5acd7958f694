import cliProgress from 'cli-progress';

/**
 * A run's bar on stderr: rows done of `total` (the input's lines; a count
 * alone where they are not known), their rate and, where rows can be
 * skipped, how many were.
 */
export function runProgressBar(
  total: number | undefined,
  { skipped = true }: { skipped?: boolean } = {},
): cliProgress.SingleBar {
  const skips = skipped ? ' | {skipped} skipped' : '';
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format:
        total === undefined
          ? `{value} samples | {rate}/s${skips}`
          : `[{bar}] {percentage}% | {value}/{total} | {rate}/s${skips} | eta {eta_formatted}`,
      noTTYOutput: true,
      notTTYSchedule: 2000,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total ?? 0, 0, { rate: '0', skipped: 0 });
  return bar;
}

/** The scan bar's scale: its value is the share of the file scanned, in thousandths. */
const SCALE = 1000;
/**
 * The most the bar shows before `done`: once the file is read, the scan still
 * verifies its near-duplicate candidates (a merge of 200,000 rows: ~1 s; a
 * CSV's statistics too: ~3 s), and "100% | eta 0s" said it was over.
 */
const READ_TO_END = 0.99;

/**
 * The dataset checks' scan told on stderr as it reads the file. A run reads
 * the whole file once before its first row (duplicates and contamination
 * need every row): 100,000 rows took ~4 s on one worker, a million ~40 s,
 * and the command said nothing meanwhile. Started at the first progress it
 * is told (a slice scanned, or the 1,024th sample where rows are read one
 * at a time), so a file that fails at once gets its error without a progress
 * line (as the run's own bar); stopped before the run's bar starts.
 */
export class ScanProgress {
  readonly #measured: boolean;
  readonly #stream: NodeJS.WritableStream;
  #bar: cliProgress.SingleBar | undefined;
  /** Stopped: later updates (none are expected) start no second bar. */
  #ended = false;

  /** `measured`: the scan tells how much of the file it has read (else only its samples). */
  constructor(measured: boolean, stream: NodeJS.WritableStream = process.stderr) {
    this.#measured = measured;
    this.#stream = stream;
  }

  /** `share`: of the file read (0..1; ignored when not measured); `samples`: read so far. */
  update(share: number, samples: number): void {
    if (this.#ended) return;
    const read = Number.isFinite(share) ? Math.min(READ_TO_END, Math.max(0, share)) : 0;
    const value = this.#measured ? Math.round(read * SCALE) : 0;
    if (!this.#bar) {
      this.#bar = new cliProgress.SingleBar(
        {
          stream: this.#stream,
          format: this.#measured
            ? 'dataset checks [{bar}] {percentage}% | {samples} samples | {duration_formatted} | eta {eta_formatted}'
            : 'dataset checks: {samples} samples | {duration_formatted}',
          noTTYOutput: true,
          notTTYSchedule: 2000,
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      );
      this.#bar.start(this.#measured ? SCALE : 0, value, { samples });
    } else this.#bar.update(value, { samples });
  }

  /** The whole file scanned (`samples` in all): the bar full, its line ended. */
  done(samples: number): void {
    this.#bar?.update(this.#measured ? SCALE : 0, { samples });
    this.stop();
  }

  /** Ends the line (the scan failed, or is done); nothing when it never started. */
  stop(): void {
    this.#ended = true;
    this.#bar?.stop();
    this.#bar = undefined;
  }
}
