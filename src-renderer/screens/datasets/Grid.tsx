import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import type { GridRow } from '../../../src-shared/owner/datasets.ts';
import { rowAt, useGrid } from '../../state/grid.ts';
import { StatusBadges } from './StatusBadges.tsx';

/**
 * The dataset grid: TanStack Table defines the columns and renders the cells;
 * TanStack Virtual renders only the rows on screen. The table is fed only the
 * rows of the visible window (fetched in pages from main), while the scroll
 * height is that of every row of the filtered view.
 */

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
    cell: (info) => info.getValue().replace('_', ' '),
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

const COLUMN_WIDTHS = '36px 64px 110px minmax(240px, 3fr) minmax(160px, 2fr) 220px 64px';
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

export function Grid() {
  const { total, pages, generation, ensurePages, showDetail, detailIndex } = useGrid();
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual's API is unmemoizable by design
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;

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

  return (
    <div className="grid" role="table" aria-label="Samples" aria-rowcount={total}>
      <div className="grid-header" role="row" style={{ gridTemplateColumns: COLUMN_WIDTHS }}>
        {table.getHeaderGroups()[0]?.headers.map((header) => (
          <div key={header.id} role="columnheader" className="grid-cell">
            <table.FlexRender header={header} />
          </div>
        ))}
      </div>
      <div ref={scrollRef} className="grid-body" data-testid="grid-body">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const data = rowAt(pages, item.index);
            const row = data ? rowsById.get(String(data.index)) : undefined;
            return (
              <div
                key={item.key}
                role="row"
                data-testid="grid-row"
                aria-selected={data?.index === detailIndex}
                className={`grid-row${data?.index === detailIndex ? ' active' : ''}`}
                style={{
                  gridTemplateColumns: COLUMN_WIDTHS,
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                }}
                onClick={() => data && showDetail(data.index)}
              >
                {row ? (
                  row.getAllCells().map((cell) => (
                    <div key={cell.id} role="cell" className="grid-cell">
                      <table.FlexRender cell={cell} />
                    </div>
                  ))
                ) : (
                  <div className="grid-cell muted">loading…</div>
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
