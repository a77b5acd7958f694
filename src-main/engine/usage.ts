import type { EngineModel } from '../../src-shared/models.ts';

export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
}

export interface ModelUsage extends TokenUsage {
  passes: number;
}

/** Tokens read and written, per engine model; every pass counts. */
export class UsageMeter {
  readonly #byModel = new Map<EngineModel, ModelUsage>();

  add(model: EngineModel, usage: TokenUsage): void {
    const entry = this.#byModel.get(model) ?? { input_tokens: 0, output_tokens: 0, passes: 0 };
    entry.input_tokens += usage.input_tokens;
    entry.output_tokens += usage.output_tokens;
    entry.passes += 1;
    this.#byModel.set(model, entry);
  }

  /** A meter holding these totals (what crossed a thread as `byModel()`). */
  static of(totals: Partial<Record<EngineModel, ModelUsage>>): UsageMeter {
    const meter = new UsageMeter();
    for (const [model, usage] of Object.entries(totals) as [EngineModel, ModelUsage][]) {
      meter.#byModel.set(model, { ...usage });
    }
    return meter;
  }

  merge(other: UsageMeter): void {
    for (const [model, usage] of other.#byModel) {
      const entry = this.#byModel.get(model) ?? { input_tokens: 0, output_tokens: 0, passes: 0 };
      entry.input_tokens += usage.input_tokens;
      entry.output_tokens += usage.output_tokens;
      entry.passes += usage.passes;
      this.#byModel.set(model, entry);
    }
  }

  byModel(): Partial<Record<EngineModel, ModelUsage>> {
    return Object.fromEntries([...this.#byModel].map(([m, u]) => [m, { ...u }]));
  }

  total(): TokenUsage {
    let input_tokens = 0;
    let output_tokens = 0;
    for (const usage of this.#byModel.values()) {
      input_tokens += usage.input_tokens;
      output_tokens += usage.output_tokens;
    }
    return { input_tokens, output_tokens };
  }
}
