import { describe, expect, it } from 'vitest';
import { RunRequest } from './runs.ts';

/** The first thing a refused run request is told, as the edge reports it (errors.ts). */
const firstIssue = (scope: unknown) => {
  const issue = RunRequest.safeParse({ dataset_id: 'ds_1', operation: 'refine', scope }).error
    ?.issues[0];
  return issue && { path: issue.path, message: issue.message };
};

describe("a run's scope", () => {
  it('names the row index that is not one, not only the scope', () => {
    expect(firstIssue({ kind: 'selection', indices: [3, -1] })).toEqual({
      path: ['scope', 'indices', 1],
      message: 'expected a row index (a whole number ≥ 0)',
    });
  });

  it('says an empty selection has too few rows', () => {
    expect(firstIssue({ kind: 'selection', indices: [] })).toEqual({
      path: ['scope', 'indices'],
      message: 'expected at least 1 row index',
    });
  });

  it('names an unknown kind', () => {
    expect(firstIssue({ kind: 'everything' })?.path).toEqual(['scope', 'kind']);
  });

  it('takes every kind it knows', () => {
    for (const scope of [
      { kind: 'all' },
      { kind: 'filter', filter: { search: 'eggs' } },
      { kind: 'selection', indices: [0, 7] },
    ]) {
      expect(firstIssue(scope)).toBeUndefined();
    }
  });
});
