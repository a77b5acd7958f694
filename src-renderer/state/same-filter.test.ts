import { describe, expect, it } from 'vitest';
import { sameFilter } from './same-filter.ts';

describe('sameFilter', () => {
  it('tells a settled search box from a new search', () => {
    expect(sameFilter({ search: 'eggs', flagged: true }, { flagged: true, search: 'eggs' })).toBe(
      true,
    );
    expect(sameFilter({ search: undefined }, {})).toBe(true);
    expect(sameFilter({ search: 'eggs' }, { search: 'egg' })).toBe(false);
    expect(sameFilter({ flagged: false }, {})).toBe(false);
  });
});
