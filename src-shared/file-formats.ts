/**
 * The file formats the app reads and writes, named once for every layer: the
 * owner API's schema, the readers and writers, their messages and the
 * renderer's export buttons.
 */
export const FILE_FORMATS = ['jsonl', 'json', 'csv', 'parquet'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/** A format's name in a sentence ("cannot export JSON Lines to ..."). */
export const FORMAT_NAMES: Readonly<Record<FileFormat, string>> = {
  jsonl: 'JSON Lines',
  json: 'JSON',
  csv: 'CSV',
  parquet: 'Parquet',
};

/** A format's short name, on a button or beside a file's name ("JSONL · gsm8k"). */
export const FORMAT_LABELS: Readonly<Record<FileFormat, string>> = {
  ...FORMAT_NAMES,
  jsonl: 'JSONL',
};

/**
 * Whether a file's name says tab-separated values (`.tsv`, any case): read as
 * CSV with tabs, and written with tabs. The one place that decides it.
 */
export const isTsvName = (fileName: string): boolean => /\.tsv$/i.test(fileName);

/** A file's format as shown beside its name: "TSV" for a `.tsv`, which is read as CSV with tabs. */
export function formatLabelOf(format: FileFormat, fileName: string): string {
  return format === 'csv' && isTsvName(fileName) ? 'TSV' : FORMAT_LABELS[format];
}

/**
 * The extension of an export of a dataset read from `sourceFileName`: a TSV
 * source's CSV export is a `.tsv`, written like its source, with tabs.
 */
export function exportExtensionOf(format: FileFormat, sourceFileName: string): string {
  return format === 'csv' && isTsvName(sourceFileName) ? 'tsv' : format;
}

/** The extension a file of each format is written with. */
export const FORMAT_EXTENSIONS: Readonly<Record<FileFormat, string>> = {
  jsonl: '.jsonl',
  json: '.json',
  csv: '.csv',
  parquet: '.parquet',
};

/** Every extension read as a format (lowercase): `.ndjson` is JSON Lines too, `.tsv` CSV. */
export const FORMAT_BY_EXTENSION: Readonly<Record<string, FileFormat>> = {
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.json': 'json',
  '.csv': 'csv',
  // Tab-separated values: CSV with tabs (files/read/csv-delimiter.ts).
  '.tsv': 'csv',
  '.parquet': 'parquet',
};

/** A file picker's `accept`: every extension read. */
export const ACCEPTED_EXTENSIONS = Object.keys(FORMAT_BY_EXTENSION).join(',');

/** What a message about a file of no known format tells the person to use. */
export const KNOWN_EXTENSIONS = (() => {
  const all = Object.keys(FORMAT_BY_EXTENSION);
  return `${all.slice(0, -1).join(', ')} or ${all.at(-1)}`;
})();
