import { z } from 'zod';
import { AppError, validationError } from '../../../src-shared/errors.ts';
import type { EditableSettings } from '../../../src-shared/owner-api.ts';
import { writeSettingsSection } from '../../store/settings.ts';
import type { ServiceContext } from '../context/service-context.ts';
import type { OwnerHandlers } from './handler-types.ts';
import { promised } from './promised.ts';

/**
 * The owner methods on settings: rates, limits, the server, the dataset checks
 * and the engine's worker threads (the engines have their own).
 */

type Editable = z.output<typeof EditableSettings>;
const SECTIONS = ['rates', 'limits', 'server', 'dedup', 'engine', 'contamination'] as const;

export function settingsHandlers(
  ctx: ServiceContext,
): Pick<OwnerHandlers, 'getSettings' | 'updateSettings'> {
  const current = (): Editable => {
    const { rates, limits, server, dedup, engine, contamination } = ctx.settings();
    return { rates, limits, server, dedup, engine, contamination };
  };
  return {
    getSettings: () => promised(current),
    updateSettings: (changes) =>
      promised(() => {
        ctx.db.transaction(() => {
          const before = current();
          for (const section of SECTIONS) {
            const change = changes[section];
            if (change === undefined) continue;
            // The fields given replace theirs; the section's others stay as they are.
            const value = { ...before[section], ...change };
            try {
              writeSettingsSection(ctx.db, section, value);
            } catch (error) {
              if (error instanceof z.ZodError) throw validationError(error, section, `/${section}`);
              if (error instanceof AppError) throw error;
              throw new AppError('invalid_request', `cannot save ${section}: ${String(error)}`, {
                cause: error,
              });
            }
          }
        })();
        return current();
      }),
  };
}
