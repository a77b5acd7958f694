import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { GridRow } from '../../../src-shared/owner/datasets.ts';
import { PAGE_SIZE, rowAt, useGrid, type SortState } from '../../state/grid.ts';
import { useScaledRows } from './scaled-rows.ts';
import { StatusBadges } from './StatusBadges.tsx';
import { statusSummary } from './status-summary.ts';

/**
 * The dataset grid: TanStack Table defines the columns and renders the cells;
 * only the rows on screen are rendered (scaled-rows.ts, which reaches the last
 * of millions of rows). The table is fed only the rows of the visible window
 * (fetched in pages from main). Sorting happens in main (a million rows are
 * not in the renderer): a header click changes the query.
 */

const TYPE_LABEL: Record<string, string> = {
  text: 'text',
  multiple_choice: 'choice',
  question_answer: 'Q & A',
  conversation: 'chat',
};

const features = tableFeatures({});
const helper = createColumnHelper<typeof features, GridRow>();
const columns = helper.columns([
  helper.display({
    id: 'select',
    header: '',
    cell: ({ row }) => <SelectBox index={row.original.index} />,
  }),
  helper.accessor('source_row', { header: 'Row' }),
  helper.accessor('task_type', {
    header: 'Type',
    cell: (info) => TYPE_LABEL[info.getValue()] ?? info.getValue(),
  }),
  helper.accessor('title', { header: 'Sample' }),
  helper.accessor('detail', { header: 'Detail' }),
  helper.display({
    id: 'status',
    header: 'Status',
    cell: ({ row }) => <StatusBadges row={row.original} />,
  }),
  helper.accessor('score', {
    header: 'Score',
    cell: (info) => {
      const score = info.getValue();
      return score === null ? '—' : score.toFixed(2);
    },
  }),
]);

/** The server-side sort each header stands for. */
const SORT_OF: Record<string, SortState['column'] | undefined> = {
  source_row: 'index',
  task_type: 'task_type',
  status: 'status',
  score: 'score',
};

const WIDTHS: Record<string, string> = {
  select: '36px',
  source_row: '64px',
  task_type: '64px',
  title: 'minmax(200px, 3fr)',
  detail: 'minmax(140px, 2fr)',
  status: 'minmax(170px, 1.4fr)',
  score: '72px',
};
const ROW_HEIGHT = 40;

function SelectBox({ index }: { index: number }) {
  const selected = useGrid((s) => s.selection.has(index));
  const toggle = useGrid((s) => s.toggleSelected);
  return (
    <input
      type="checkbox"
      aria-label={`select row ${index + 1}`}
      checked={selected}
      onClick={(event) => event.stopPropagation()}
      onChange={() => toggle(index)}
    />
  );
}

/** The text a cell shows, as its tooltip: cells are cut at the column's width. */
function tooltip(row: GridRow, column: string): string | undefined {
  if (column === 'title') return row.title;
  if (column === 'detail') return row.detail;
  if (column === 'status') return statusSummary(row);
  return undefined;
}

/** Focuses the grid row of a dataset row (when it is rendered). */
function focusRow(index: number): void {
  document.querySelector<HTMLElement>(`.grid-row[data-index="${index}"]`)?.focus();
}

export function Grid({ hideDetail, narrow }: { hideDetail: boolean; narrow: boolean }) {
  const { total, pages, generation, ensurePages, showDetail, detailIndex, sort, setSort } =
    useGrid();
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useScaledRows(scrollRef, total, ROW_HEIGHT);
  const first = rows.first;
  const last = Math.max(rows.first, rows.last);
  const positions: number[] = [];
  for (let position = rows.first; position <= rows.last; position++) positions.push(position);

  useEffect(() => {
    void ensurePages(first, last);
  }, [first, last, generation, ensurePages]);

  // Only the rows of the visible window reach the table.
  const windowRows = useMemo(() => {
    const rows: GridRow[] = [];
    for (let position = first; position <= last && position < total; position++) {
      const row = rowAt(pages, position);
      if (row) rows.push(row);
    }
    return rows;
  }, [pages, first, last, total]);

  const table = useTable({
    features,
    columns,
    data: windowRows,
    getRowId: (row) => String(row.index),
  });
  const tableRows = table.getRowModel().rows;
  const rowsById = new Map(tableRows.map((row) => [row.id, row]));
  // The detail column gives way when the review panel narrows the grid, and for plain text;
  // in a narrow grid the type goes too, so that status and score stay in view.
  const shown = (id: string) =>
    !((hideDetail || narrow) && id === 'detail') && !(narrow && id === 'task_type');
  const headers = (table.getHeaderGroups()[0]?.headers ?? []).filter((h) => shown(h.column.id));
  const template = headers
    .map((h) => (narrow && h.column.id === 'title' ? 'minmax(120px, 3fr)' : WIDTHS[h.column.id]))
    .map((width) => width ?? '1fr')
    .join(' ');

  // The row under review stays in view (moved by keys, or opened from the Overview), and focused.
  useEffect(() => {
    if (detailIndex === null) return;
    for (let p = first; p <= last; p++) {
      if (rowAt(pages, p)?.index === detailIndex) return;
    }
    for (const [page, list] of pages) {
      const at = list.findIndex((row) => row.index === detailIndex);
      if (at >= 0) rows.scrollToIndex(page * PAGE_SIZE + at);
    }
  }, [detailIndex, first, last, pages, rows]);

  // Keyboard review: up and down move the open row. Bound before the paint, as the review's
  // keys are (ReviewPanel): a key pressed as a row opens is that row's.
  useLayoutEffect(() => {
    if (detailIndex === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) {
        return;
      }
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      let position = -1;
      for (let p = first; p <= last; p++) {
        if (rowAt(pages, p)?.index === detailIndex) position = p;
      }
      if (position === -1) return;
      const next = position + (event.key === 'ArrowDown' ? 1 : -1);
      const row = rowAt(pages, next);
      if (!row) return;
      event.preventDefault();
      showDetail(row.index);
      // An edit not saved may keep the review on its row (it asks): the grid stays with it.
      if (useGrid.getState().detailIndex === row.index) rows.scrollToIndex(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [detailIndex, first, last, pages, showDetail, rows]);

  return (
    <div className="grid" role="table" aria-label="Samples" aria-rowcount={total}>
      <div className="grid-header" role="row" style={{ gridTemplateColumns: template }}>
        {headers.map((header) => {
          const sortColumn = SORT_OF[header.column.id];
          const active = sortColumn !== undefined && sort.column === sortColumn;
          return (
            <div
              key={header.id}
              role="columnheader"
              className="grid-cell"
              aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
            >
              {sortColumn ? (
                <button
                  type="button"
                  className="sort-button"
                  title={`Sort by ${header.column.id.replace('_', ' ')}`}
                  onClick={() =>
                    setSort({
                      column: sortColumn,
                      direction: active && sort.direction === 'asc' ? 'desc' : 'asc',
                    })
                  }
                >
                  <table.FlexRender header={header} />
                  <span aria-hidden="true">
                    {active ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}
                  </span>
                </button>
              ) : (
                <table.FlexRender header={header} />
              )}
            </div>
          );
        })}
      </div>
      <div ref={scrollRef} className="grid-body" data-testid="grid-body">
        <div style={{ height: rows.height, position: 'relative' }}>
          {positions.map((position) => {
            const data = rowAt(pages, position);
            const row = data ? rowsById.get(String(data.index)) : undefined;
            return (
              <div
                key={position}
                role="row"
                // A place held for a row still being read is not a row yet: nothing to open.
                data-testid={data ? 'grid-row' : 'grid-row-loading'}
                aria-selected={data?.index === detailIndex}
                tabIndex={data ? 0 : -1}
                data-index={data?.index}
                className={`grid-row${data?.index === detailIndex ? ' active' : ''}${data?.dropped ? ' dropped' : ''}`}
                onKeyDown={(event) => {
                  if (!data) return;
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    showDetail(data.index);
                  } else if (
                    detailIndex === null &&
                    (event.key === 'ArrowDown' || event.key === 'ArrowUp')
                  ) {
                    // Without a review open, the arrows move the focus from row to row.
                    event.preventDefault();
                    const next = position + (event.key === 'ArrowDown' ? 1 : -1);
                    if (next < 0 || next >= total) return;
                    rows.scrollToIndex(next);
                    requestAnimationFrame(() => {
                      const target = rowAt(pages, next);
                      if (target) focusRow(target.index);
                    });
                  }
                }}
                style={{
                  gridTemplateColumns: template,
                  height: ROW_HEIGHT,
                  transform: `translateY(${rows.top(position)}px)`,
                }}
                onClick={() => data && showDetail(data.index)}
              >
                {row && data ? (
                  row
                    .getAllCells()
                    .filter((cell) => shown(cell.column.id))
                    .map((cell) => (
                      <div
                        key={cell.id}
                        role="cell"
                        className="grid-cell"
                        title={tooltip(data, cell.column.id)}
                      >
                        <table.FlexRender cell={cell} />
                      </div>
                    ))
                ) : (
                  <div className="grid-cell grid-loading muted">loading…</div>
                )}
              </div>
            );
          })}
        </div>
        {total === 0 && <div className="empty small">No rows match.</div>}
      </div>
    </div>
  );
}
