import { describe, expect, it } from 'vitest';
import { validationError } from '../../../src-shared/errors.ts';
import { EditableSettings } from '../../../src-shared/owner-api.ts';
import { DEFAULT_SETTINGS } from '../../../src-shared/schemas/settings.ts';
import { fieldMessage } from './field-error.ts';

describe('the server’s message about one setting', () => {
  // The settings the app edits: every section but the engines' (their own methods).
  const editable = Object.fromEntries(
    Object.entries(DEFAULT_SETTINGS).filter(([section]) => section !== 'upstream'),
  );
  const errorOf = (settings: unknown) => {
    const parsed = EditableSettings.safeParse(settings);
    if (parsed.success) throw new Error('expected the settings to be refused');
    return validationError(parsed.error, 'input of updateSettings');
  };

  it('reads it from the error the server makes of an unknown benchmark', () => {
    const error = errorOf({ ...editable, contamination: { benchmarks: 'gsm8k,mmlu' } });
    const message = fieldMessage(error.message, '/contamination/benchmarks');
    expect(message).toMatch(/^unknown benchmark "mmlu": takes all, none/);
  });

  it('is null for another field, or no validation error', () => {
    const error = errorOf({ ...editable, dedup: { threshold: 3 } });
    expect(fieldMessage(error.message, '/contamination/benchmarks')).toBeNull();
    expect(fieldMessage('the server cannot be reached', '/contamination/benchmarks')).toBeNull();
    expect(fieldMessage(undefined, '/contamination/benchmarks')).toBeNull();
  });
});
