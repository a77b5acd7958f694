import { describe, expect, it } from 'vitest';
import { groupByRequest } from './group.ts';

describe('groupByRequest', () => {
  it('folds consecutive entries of one request and of one kind, and nothing else', () => {
    const rows = [
      { id: 1, request_id: 'run_a', kind: 'charge' },
      { id: 2, request_id: 'run_a', kind: 'charge' },
      { id: 3, request_id: 'run_a', kind: 'release' },
      { id: 4, request_id: null, kind: 'grant' },
      { id: 5, request_id: null, kind: 'grant' },
      { id: 6, request_id: 'run_a', kind: 'charge' },
    ];
    const groups = groupByRequest(rows, (a, b) => a.kind === b.kind);
    expect(groups.map((g) => g.entries.map((e) => e.id))).toEqual([[1, 2], [3], [4], [5], [6]]);
  });
});
