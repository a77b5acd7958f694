import { describe, expect, it, vi } from 'vitest';

vi.mock('../api/client.ts', () => ({ api: {} }));

const { guardLeavingRow, useGrid } = await import('./grid.ts');

describe('leaving the row under review with an edit open', () => {
  it('asks the guard before another row or none, and keeps the row when it says no', () => {
    useGrid.setState({ detailIndex: 3 });
    const answers = [false, true];
    const guard = vi.fn(() => answers.shift() ?? true);
    const unguard = guardLeavingRow(guard);
    useGrid.getState().showDetail(4);
    expect(useGrid.getState().detailIndex).toBe(3);
    // The same row again is no leaving: not asked.
    useGrid.getState().showDetail(3);
    expect(guard).toHaveBeenCalledTimes(1);
    useGrid.getState().showDetail(4);
    expect(useGrid.getState().detailIndex).toBe(4);
    expect(guard).toHaveBeenCalledTimes(2);
    unguard();
    useGrid.getState().showDetail(null);
    expect(useGrid.getState().detailIndex).toBeNull();
    expect(guard).toHaveBeenCalledTimes(2);
  });

  it('is removed only by its own remover: a newer guard stays', () => {
    useGrid.setState({ detailIndex: 1 });
    const older = guardLeavingRow(() => true);
    const newer = guardLeavingRow(() => false);
    older();
    useGrid.getState().showDetail(2);
    expect(useGrid.getState().detailIndex).toBe(1);
    newer();
    useGrid.getState().showDetail(2);
    expect(useGrid.getState().detailIndex).toBe(2);
  });
});
