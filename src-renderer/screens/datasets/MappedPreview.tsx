import { Fragment, useState } from 'react';
import type { ImportPreview } from '../../../src-shared/owner/datasets.ts';

type PreviewRow = ImportPreview['rows'][number];
type Sample = Record<string, unknown>;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The columns of a task type's rows: one per role. */
function columnsOf(taskType: string | undefined): string[] {
  switch (taskType) {
    case 'multiple_choice':
      return ['context', 'choices'];
    case 'question_answer':
      return ['question', 'answer'];
    case 'conversation':
      return ['turns'];
    default:
      return ['text'];
  }
}

function Cell({ sample, column }: { sample: Sample; column: string }) {
  if (column === 'choices') {
    const choices = Array.isArray(sample.choices) ? (sample.choices as unknown[]) : [];
    return (
      <ol type="A" className="preview-choices">
        {choices.map((choice, i) => (
          <li key={i} className={i === sample.answer_index ? 'labelled' : undefined}>
            {str(choice)}
            {i === sample.answer_index && <span aria-label="labelled answer"> ✓</span>}
          </li>
        ))}
      </ol>
    );
  }
  if (column === 'turns') {
    const messages = Array.isArray(sample.messages) ? (sample.messages as Sample[]) : [];
    return (
      <div className="preview-turns">
        {messages.map((message, i) => (
          <div key={i}>
            <b>{str(message.role)}:</b> <span className="clip-text">{str(message.content)}</span>
          </div>
        ))}
      </div>
    );
  }
  return <span className="clip-text">{str(sample[column])}</span>;
}

/**
 * The first rows as the mapping reads them: a column per role (choices
 * listed with the labelled one marked, turns with their roles), the reason
 * for each row that does not map, and the raw source row on demand.
 */
export function MappedPreview({ preview }: { preview: ImportPreview }) {
  // Keyed by row and path: a tree read along every path gives several preview rows.
  const [raw, setRaw] = useState<string | null>(null);
  const taskType =
    preview.mapping?.task_type ?? preview.shapes.find((s) => s.id === preview.shape)?.task_type;
  const columns = columnsOf(taskType);
  return (
    <div className="preview-scroll">
      <table className="table compact preview" data-testid="mapped-preview">
        <thead>
          <tr>
            <th>Row</th>
            {columns.map((column) => (
              <th key={column}>{column}</th>
            ))}
            <th aria-label="Source" />
          </tr>
        </thead>
        <tbody>
          {preview.rows.map((row: PreviewRow) => {
            const key = `${row.row}:${row.path ?? ''}`;
            return (
              <Fragment key={key}>
                <tr className={row.error ? 'error-row' : undefined}>
                  <td>
                    {row.row}
                    {row.path && <div className="muted">path {row.path}</div>}
                  </td>
                  {row.error || !row.sample ? (
                    <td colSpan={columns.length}>
                      <span className="error-text">{row.error}</span>
                    </td>
                  ) : (
                    columns.map((column) => (
                      <td key={column}>
                        <Cell sample={row.sample as Sample} column={column} />
                      </td>
                    ))
                  )}
                  <td>
                    {row.original && (
                      <button
                        type="button"
                        className="button small"
                        aria-expanded={raw === key}
                        onClick={() => setRaw(raw === key ? null : key)}
                      >
                        source
                      </button>
                    )}
                  </td>
                </tr>
                {raw === key && row.original && (
                  <tr className="raw-row">
                    <td />
                    <td colSpan={columns.length + 1}>
                      <pre className="raw-source">{JSON.stringify(row.original, null, 2)}</pre>
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
