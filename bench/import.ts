import Database from 'better-sqlite3';
import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readJsonl } from '../src-main/engine/testing/real-data.ts';
import { createServiceContext } from '../src-main/service/context/service-context.ts';
import { gridQueries } from '../src-main/service/datasets/grid-queries.ts';
import { importDataset } from '../src-main/service/datasets/import.ts';
import { openDatabase } from '../src-main/store/db.ts';
import { formatRow, mib } from './stats.ts';

type DuckDb = typeof import('@duckdb/node-api');

/**
 * Import speed against the storage itself: the same generated GSM8K-like
 * JSON Lines file (real GSM8K rows replicated, each made distinct) imported
 * through the app's import and through a plain better-sqlite3 insert of
 * (id, line) in one transaction, on a database with the app's pragmas
 * (WAL, FULL sync), interleaved, best of `rounds` each. For reference, DuckDB's
 * read_json_auto of the same file into a DuckDB database file, in the same rounds: a columnar
 * engine parsing JSON in C++ on every core, which says how fast the file can be read at all.
 */

export async function writeGsm8kLike(path: string, rows: number): Promise<void> {
  const base = readJsonl<{ question: string; answer: string }>('gsm8k_test_first300.jsonl');
  const out = createWriteStream(path);
  for (let i = 0; i < rows; i++) {
    const row = base[i % base.length] as { question: string; answer: string };
    const line = JSON.stringify({ id: i, question: `${row.question} (#${i})`, answer: row.answer });
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** The peer: every line of the file into (id, line), one transaction, nothing else. */
export async function plainInsert(file: string, dir: string): Promise<number> {
  const db = new Database(join(dir, 'plain.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE lines (id INTEGER PRIMARY KEY, line TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO lines (id, line) VALUES (?, ?)');
  const started = performance.now();
  db.exec('BEGIN');
  let pending = '';
  let id = 0;
  for await (const chunk of createReadStream(file, { encoding: 'utf8' }) as AsyncIterable<string>) {
    pending += chunk;
    let start = 0;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n', start)) {
      insert.run(id++, pending.slice(start, end));
      start = end + 1;
    }
    pending = pending.slice(start);
  }
  if (pending !== '') insert.run(id, pending);
  db.exec('COMMIT');
  const ms = performance.now() - started;
  db.close();
  return ms;
}

/**
 * The dev dependency is loaded lazily so that a machine without its native binding (an
 * unsupported platform, an install that skipped optional packages) still runs the rest.
 */
async function loadDuckDb(): Promise<DuckDb | string> {
  try {
    return await import('@duckdb/node-api');
  } catch (error) {
    return error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error);
  }
}

/**
 * The reference: one `CREATE TABLE AS read_json_auto` into a fresh database file, counted until
 * the rows are checkpointed into that file (as the SQLite rows are counted until committed).
 */
async function duckDbReadJson(duckdb: DuckDb, file: string, dir: string): Promise<number> {
  const started = performance.now();
  const instance = await duckdb.DuckDBInstance.create(join(dir, 'duck.duckdb'));
  const connection = await instance.connect();
  const literal = `'${file.replaceAll("'", "''")}'`;
  await connection.run(`CREATE TABLE t AS SELECT * FROM read_json_auto(${literal})`);
  await connection.run('CHECKPOINT');
  connection.closeSync();
  instance.closeSync();
  return performance.now() - started;
}

interface AppImportTimes {
  /** The first import event: the first rows are committed, the grid can show them. */
  firstRows: number;
  returned: number;
  stored: number;
}

/**
 * The app's import: when its first rows could be read, when it returned, and when its rows
 * were also checkpointed into the database.
 */
async function appImport(file: string, dir: string): Promise<AppImportTimes> {
  const db = openDatabase(dir);
  const ctx = createServiceContext(db, dir, '0.0.0-bench');
  const started = performance.now();
  let firstRows = Number.NaN;
  await importDataset(
    ctx,
    {
      uploads: { pathOf: () => file },
      emit: (event) => {
        if (event.type === 'import' && event.rows > 0 && Number.isNaN(firstRows)) {
          firstRows = performance.now() - started;
        }
      },
    },
    { source: { path: file }, shape: 'gsm8k', name: 'bench' },
  );
  const returned = performance.now() - started;
  // The WAL the import grew is checkpointed by a worker thread in the background; the peer's
  // one transaction checkpoints as it commits: both are counted until the rows are in the file.
  db.pragma('wal_checkpoint(TRUNCATE)');
  const stored = performance.now() - started;
  await gridQueries(db).close();
  db.close();
  return { firstRows, returned, stored };
}

const fresh = (root: string, name: string): string => {
  const dir = join(root, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  return dir;
};

export async function benchImport(rows: number, rounds = 2): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'svc-bench-import-'));
  const file = join(root, `gsm8k-x${rows}.jsonl`);
  await writeGsm8kLike(file, rows);
  const plain: number[] = [];
  const app: AppImportTimes[] = [];
  const duck: number[] = [];
  const duckdb = await loadDuckDb();
  for (let round = 0; round < rounds; round++) {
    plain.push(await plainInsert(file, fresh(root, 'plain')));
    app.push(await appImport(file, fresh(root, 'app')));
    if (typeof duckdb !== 'string')
      duck.push(await duckDbReadJson(duckdb, file, fresh(root, 'duck')));
  }
  const plainMs = Math.min(...plain);
  const appMs = Math.min(...app.map((a) => a.stored));
  const returnedMs = Math.min(...app.map((a) => a.returned));
  const appBytes = statSync(join(root, 'app', 'svc.sqlite')).size;
  const plainBytes = statSync(join(root, 'plain', 'plain.sqlite')).size;
  console.log(
    `\n## import: ${rows.toLocaleString('en-US')} GSM8K-like rows (${mib(statSync(file).size)} JSONL), best of ${rounds}`,
  );
  const widths = [50, 10, 10, 12];
  console.log(formatRow(['', 'ms', 'ratio', 'store'], widths));
  console.log(
    formatRow(
      ['plain better-sqlite3 (id, line), one txn', plainMs, '1.00×', mib(plainBytes)],
      widths,
    ),
  );
  console.log(
    formatRow(
      [
        'app import, rows in the database file',
        appMs,
        `${(appMs / plainMs).toFixed(2)}×`,
        mib(appBytes),
      ],
      widths,
    ),
  );
  console.log(
    formatRow(
      [
        'app import, until importDataset returned',
        returnedMs,
        `${(returnedMs / plainMs).toFixed(2)}×`,
        '',
      ],
      widths,
    ),
  );
  console.log(
    formatRow(
      [
        'app import, first rows readable (grid shows them)',
        Math.min(...app.map((a) => a.firstRows)),
        '',
        '',
      ],
      widths,
    ),
  );
  if (typeof duckdb === 'string') {
    console.log(`\nDuckDB read_json_auto not measured: @duckdb/node-api did not load (${duckdb}).`);
  } else {
    const duckMs = Math.min(...duck);
    console.log(
      formatRow(
        [
          `DuckDB ${duckdb.version()} read_json_auto, into a file`,
          duckMs,
          `${(duckMs / plainMs).toFixed(2)}×`,
          mib(statSync(join(root, 'duck', 'duck.duckdb')).size),
        ],
        widths,
      ),
    );
  }
  rmSync(root, { recursive: true, force: true });
}

if (import.meta.main) await benchImport(Number(process.env.BENCH_IMPORT_ROWS ?? 200_000));
