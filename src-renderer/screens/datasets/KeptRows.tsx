import type { ExportResult } from '../../../src-shared/owner/datasets.ts';
import { count } from '../../format.ts';
import { useGrid } from '../../state/grid.ts';

/**
 * The rows an export wrote as they were because their accepted fix does not
 * fit the file's schema (a transcript longer than an Alpaca row holds, two
 * paths of one tree repairing a shared message differently): said at once,
 * each listed row a button that opens it in the review, so an accepted fix
 * is never left out of the file without a word.
 */
export function KeptRows({ result }: { result: Pick<ExportResult, 'kept' | 'kept_rows'> }) {
  const setView = useGrid((s) => s.setView);
  const showDetail = useGrid((s) => s.showDetail);
  if (result.kept_rows === 0) return null;
  const more = result.kept_rows - result.kept.length;
  return (
    <div className="banner warn-banner kept-rows" role="status" data-testid="export-kept">
      <details>
        <summary>
          {count(result.kept_rows, 'row')} exported as{' '}
          {result.kept_rows === 1 ? 'it was' : 'they were'}: the accepted fix does not fit the
          file&rsquo;s schema.
        </summary>
        <ul>
          {result.kept.map((kept) => (
            <li key={kept.row}>
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setView('rows');
                  showDetail(kept.row);
                }}
              >
                Row {kept.source_row.toLocaleString('en-US')}
              </button>{' '}
              {kept.message}
            </li>
          ))}
          {more > 0 && <li className="muted">and {count(more, 'more row')}</li>}
        </ul>
      </details>
    </div>
  );
}
