import { AppError } from '../../../src-shared/errors.ts';
import { FieldMapping } from '../../../src-shared/schemas/mapping.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { resolveRowMapping, type MappingWanted, type RowMapping } from '../../engine/rows/index.ts';
import type { ShapeId } from '../../engine/shapes/index.ts';
import type { SampleSource } from '../../store/datasets-rows.ts';
import { datasetRecord, type DatasetRecord } from '../../store/datasets.ts';
import type { Db } from '../../store/db.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';

/**
 * A row's sample, and a sample's row. An import stores each row once, as
 * read (migration 8): its sample is the dataset's mapping applied to that
 * original again, the same function of the same row the import checked it
 * with. Rows imported before keep their sample (`sample_json`), read as it
 * is. An export writes an accepted fix back into its row through the same
 * mapping (engine/rows makes it from what the dataset keeps).
 */

/** How a dataset's rows were read, as it keeps it (its field mapping, else its shape). */
function wantedOf(dataset: DatasetRecord): MappingWanted {
  return dataset.shape === 'custom' && dataset.mapping_json !== null
    ? { mapping: FieldMapping.parse(JSON.parse(dataset.mapping_json)) }
    : { shape: dataset.shape as ShapeId };
}

const mappings = new WeakMap<Db, Map<string, RowMapping>>();

/** The mapping a dataset's rows were read with, rebuilt from what the dataset keeps. */
export function datasetMapping(db: Db, datasetId: string): RowMapping {
  let byId = mappings.get(db);
  if (!byId) {
    byId = new Map();
    mappings.set(db, byId);
  }
  const known = byId.get(datasetId);
  if (known) return known;
  const dataset = datasetRecord(db, datasetId);
  if (!dataset) throw new AppError('not_found', `no dataset ${datasetId}`);
  const mapping = resolveRowMapping([], {
    ...wantedOf(dataset),
    paths: dataset.paths ?? undefined,
  });
  if (!mapping) throw new AppError('internal_error', `dataset ${datasetId} has no mapping`);
  byId.set(datasetId, mapping);
  return mapping;
}

/**
 * How an export writes a sample back into its row, one row on its own (the
 * paths of a tree are written together: see `writeOasstPaths`).
 */
export function rowWriter(dataset: DatasetRecord): RowMapping['toRow'] {
  if (dataset.shape === 'custom' && dataset.mapping_json === null) {
    throw new AppError('internal_error', `dataset ${dataset.id} has a custom shape and no mapping`);
  }
  const mapping = resolveRowMapping([], wantedOf(dataset));
  if (!mapping) throw new AppError('internal_error', `dataset ${dataset.id} has no mapping`);
  return (sample, original) => mapping.toRow(sample, original);
}

/** The paths of a tree are consecutive rows: the last tree read is kept, per dataset. */
const lastTree = new WeakMap<RowMapping, { original: string; paths: Map<string, Sample> }>();

/** Reads the samples of one dataset's rows: `(row) => sample`. */
export function sampleReader(db: Db, datasetId: string): (row: SampleSource) => Sample {
  let mapping: RowMapping | undefined;
  return (row) => {
    if (row.sample_json !== '') return parseJsonExact(row.sample_json) as Sample;
    if (row.lean_original === null) {
      throw new AppError('internal_error', `a row of ${datasetId} has neither sample nor original`);
    }
    mapping ??= datasetMapping(db, datasetId);
    if (!mapping.tree)
      return mapping.toSample(parseJsonExact(row.lean_original) as Record<string, unknown>);
    let tree = lastTree.get(mapping);
    if (tree?.original !== row.lean_original) {
      const paths = mapping.tree.samplesOf(
        parseJsonExact(row.lean_original) as Record<string, unknown>,
      );
      tree = {
        original: row.lean_original,
        paths: new Map(paths.map((p) => [JSON.stringify(p.route), p.sample])),
      };
      lastTree.set(mapping, tree);
    }
    const sample = tree.paths.get(row.source_path ?? '');
    if (!sample) throw new AppError('internal_error', `a row of ${datasetId} lost its tree path`);
    return structuredClone(sample);
  };
}
