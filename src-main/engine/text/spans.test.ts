import { describe, expect, it } from 'vitest';
import type { Issue } from '../../../src-shared/schemas/blocks.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { runChecks } from '../checks/index.ts';
import { parseConventions } from '../conventions.ts';

/** Issues whose rule knows the characters carry `span`: the slice at `path` is the defect. */

const issuesOf = (sample: Sample): Issue[] =>
  Object.values(runChecks(sample, parseConventions(undefined)).checks).flatMap((v) => v.issues);

const sliceOf = (sample: Record<string, unknown>, issue: Issue): string => {
  const [, field, index, key] = (issue.path ?? '').split('/');
  let value: unknown = sample[field as string];
  if (index !== undefined) value = (value as unknown[])[Number(index)];
  if (key !== undefined) value = (value as Record<string, unknown>)[key];
  const [start, end] = issue.span ?? [0, 0];
  return String(value).slice(start, end);
};

describe('issue spans', () => {
  it.each([
    ['pii_email', 'Write to jane.doe@gmail.com for the slides.', 'jane.doe@gmail.com'],
    ['markup_debris', 'A table <b>of</b> results.', '<b>'],
    ['mojibake', 'The café opens at nine.'.replace('é', '\u00c3\u00a9'), '\u00c3\u00a9'],
    ['repeated_words', 'We went to the market market market today.', 'market market market'],
  ])('%s locates its characters', (code, text, expected) => {
    const sample = { task_type: 'text' as const, text };
    const issue = issuesOf(sample).find((i) => i.code === code);
    expect(
      issue,
      `${code} in ${JSON.stringify(issuesOf(sample).map((i) => i.code))}`,
    ).toBeDefined();
    expect(issue?.span).toBeDefined();
    expect(sliceOf(sample, issue as Issue).toLowerCase()).toContain(expected.toLowerCase());
  });

  it('names choices by their letters and points at the choice', () => {
    const sample: Sample = {
      task_type: 'multiple_choice',
      context: 'Which is a colour?',
      choices: ['red', 'stone', 'red', 'tree'],
      answer_index: 0,
      style: 'qa',
    };
    const issue = issuesOf(sample).find((i) => i.code === 'duplicate_choice');
    expect(issue).toMatchObject({ path: '/choices/2' });
    expect(issue?.message).toMatch(/^choice C repeats choice A/);
  });
});
