import { TEXT_DIMENSIONS } from '../../../src-shared/checks.ts';
import type { TextSample } from '../../../src-shared/schemas/sample.ts';
import type { Conventions } from '../conventions.ts';
import { CheckSet } from './check-set.ts';
import type { SampleVerdicts } from './types.ts';
import { inspectText } from './text-fields.ts';

/** A text sample is rated on exactly the four dimensions. */
export function checkText(sample: TextSample, conventions: Conventions): SampleVerdicts {
  const checks = new CheckSet(TEXT_DIMENSIONS, conventions);
  for (const hit of inspectText(sample.text, '/text', { freeText: true, conventions })) {
    checks.add(hit.rule.dimension, hit.issue, hit.count);
  }
  return { checks: checks.verdicts() };
}
