import type { z } from 'zod';
import { AppError, validationError } from '../../../src-shared/errors.ts';
import type { EditRow, RowDetail } from '../../../src-shared/owner/datasets.ts';
import type { AuditBlock, FixBlock } from '../../../src-shared/schemas/blocks.ts';
import { Sample } from '../../../src-shared/schemas/sample.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { changesBetween } from '../../engine/edit-patch.ts';
import { editInput, updateRowResults } from '../../store/datasets-rows.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { withoutResults } from '../runs/contract.ts';
import { runOperation } from '../runs/operation.ts';
import { OwnerRunUsage } from '../owner/run-usage.ts';
import { newId } from './ids.ts';
import { sampleReader } from './row-sample.ts';
import type { DatasetVerdicts } from '../dataset-checks/core.ts';
import { displayedVerdict, verdictColumns } from './row-state.ts';
import type { Answer } from '../owner/encoded-json.ts';
import { rowDetail } from './row-detail.ts';
import { readyDataset } from './summary.ts';

/**
 * A person's edit of a row, for what the engine cannot fix: the edited sample
 * is re-audited at once and stored as the row's candidate (in place of an
 * engine fix), with the JSON Patch from the imported sample (`reason:
 * edit`), the audit of the edit as its reaudit, and the decision pending:
 * the person then accepts it (or not). Never-worse is shown by the verdicts
 * side by side, not enforced: a person may decide. A row without an audit
 * gets one of its imported sample, so the deltas mean something. The audits
 * are the owner's own work: usage recorded, no credit spent. Answers the
 * row's detail as `datasetRow` does (a large row's built on the grid's worker).
 */
export async function editRow(
  ctx: ServiceContext,
  backend: EngineBackend,
  input: z.output<typeof EditRow>,
): Promise<Answer<z.output<typeof RowDetail>>> {
  const { db } = ctx;
  const dataset = readyDataset(db, input.dataset_id);
  const record = editInput(db, dataset.id, input.index);
  if (!record) {
    throw new AppError('not_found', `dataset ${dataset.id} has no row ${input.index}`);
  }
  const parsed = Sample.safeParse(withoutResults(input.sample as Sample));
  if (!parsed.success) throw validationError(parsed.error, 'edited sample', '/sample');
  const original = sampleReader(db, dataset.id)(record);
  const edited = parsed.data;
  if (edited.task_type !== original.task_type) {
    throw new AppError(
      'invalid_request',
      `an edit keeps the task type (${original.task_type}); import the row again to change it`,
      { param: '/sample/task_type' },
    );
  }
  const changes = changesBetween(original, edited);
  let audit = record.audit_json === null ? null : (JSON.parse(record.audit_json) as AuditBlock);
  const toAudit = audit === null ? [original, edited] : [edited];
  const result = await runOperation(
    { operation: 'audit', samples: toAudit, config: { votes: 1 } },
    { backend },
  );
  const audits = result.data.map((sample) => sample.audit as AuditBlock);
  const reaudit = audits.at(-1) as AuditBlock;
  audit ??= audits[0] ?? null;
  const fix: FixBlock = {
    changes,
    flagged: !reaudit.passed,
    attempts: 0,
    edited: true,
  };
  const usage = new OwnerRunUsage(db, {
    id: newId('run'),
    operation: 'audit',
    label: `of an edit of row ${record.source_row} of ${JSON.stringify(dataset.name)}`,
    source: 'app',
  });
  const checks =
    record.checks_json === null ? null : (JSON.parse(record.checks_json) as DatasetVerdicts);
  usage.recordBatch(
    { usage: result.usage.byModel(), rates: ctx.settings().rates, input: toAudit, output: [] },
    () => {
      updateRowResults(db, dataset.id, [
        {
          row_index: record.row_index,
          audit_json: audit === null ? null : JSON.stringify(audit),
          fix_json: JSON.stringify(fix),
          reaudit_json: JSON.stringify(reaudit),
          fixed_json: changes.length > 0 ? JSON.stringify(edited) : null,
          ...verdictColumns(displayedVerdict(audit, reaudit, null, checks)),
          flagged: fix.flagged ? 1 : 0,
          changed: changes.length > 0 ? 1 : 0,
          decision: null,
        },
      ]);
    },
  );
  return rowDetail(db, { dataset_id: dataset.id, index: record.row_index });
}
