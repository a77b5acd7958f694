import { Fragment } from 'react';

/**
 * A name (a dataset's, a file's) that may wrap only after `_`, `-`, `.` or
 * `/`, where its own words end, never mid-word: `truthfulqa_mc_task_` /
 * `first200`, not `truthfulqa_mc_task_fi` / `rst200`. A word longer than the
 * line still breaks (overflow-wrap: break-word in the stylesheet).
 */
export function BreakableName({ text }: { text: string }) {
  const parts = text.split(/(?<=[_\-./])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
