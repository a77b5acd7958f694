import { BENCHMARK_NAMES } from '../../../src-shared/benchmarks.ts';

type Mode = 'all' | 'none' | 'list';

const modeOf = (value: string): Mode => {
  const trimmed = value.trim().toLowerCase();
  return trimmed === 'all' || trimmed === 'none' ? trimmed : 'list';
};

/**
 * The setting `contamination.benchmarks`: every shipped benchmark, none, or
 * a list of names. The text is sent as typed and the server validates it
 * (its message names an unknown benchmark); the list's names are offered
 * as suggestions, not enforced here.
 */
export function ContaminationCard({
  value,
  error,
  onChange,
}: {
  value: string;
  /** The server's message about this setting, from the last save. */
  error: string | null;
  onChange: (value: string) => void;
}) {
  const mode = modeOf(value);
  const choose = (next: Mode) => {
    if (next === 'list') onChange(mode === 'list' ? value : BENCHMARK_NAMES.join(','));
    else onChange(next);
  };
  return (
    <div className="card" data-testid="contamination-setting">
      <h2>Benchmark contamination</h2>
      <fieldset className="choice-group">
        <legend>Look in every dataset for the test items of</legend>
        {(
          [
            ['all', 'every shipped benchmark'],
            ['none', 'none (only the datasets marked as evaluation sets)'],
            ['list', 'these benchmarks:'],
          ] as const
        ).map(([option, label]) => (
          <label key={option}>
            <input
              type="radio"
              name="contamination-benchmarks"
              checked={mode === option}
              onChange={() => choose(option)}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      {mode === 'list' && (
        <input
          type="text"
          className={`benchmark-list${error ? ' invalid' : ''}`}
          aria-label="Benchmarks to look for"
          aria-invalid={error !== null}
          aria-describedby={error ? 'benchmark-list-error' : undefined}
          list="benchmark-names"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {error && (
        <p className="error-text" id="benchmark-list-error" data-testid="benchmark-list-error">
          {error}
        </p>
      )}
      <datalist id="benchmark-names">
        {BENCHMARK_NAMES.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <p className="muted">
        Names separated by commas among {BENCHMARK_NAMES.join(', ')}. A change rescans each dataset
        when its Overview is next opened.
      </p>
    </div>
  );
}
