import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { getCompileCacheDir } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownFile } from '../own-file.ts';

/** What `eld/small` exports: the identifier with its 'small' (60 languages) tables loaded. */
export type Identifier = (typeof import('eld/small'))['eld'];

/** Where the identifier came from: its tables read from our JSON copy, or eld's own module. */
export type IdentifierSource = 'tables' | 'module';

/**
 * eld ships its n-gram tables as a 1.6 MB JavaScript object literal (81,206
 * keys); evaluating it costs ~215 ms of CPU with Node's compile cache and
 * ~300 ms without, once in every thread that identifies languages (each file
 * pass, each dataset scan). The same object read by `JSON.parse` costs
 * ~80 ms. So the tables are written once as JSON into the compile cache's
 * folder (the CLI and `svc serve` keep one; named by the size and time of
 * eld's file, so another eld version writes another) and later threads read
 * that, handing it to the same loader `eld/small` uses (`createEld` and
 * `loadData` from eld's own languageDetector.js: the package exports no
 * loader for data from elsewhere). Identification is eld's code over the
 * same tables: the labels are the same (languages-count.test.ts compares
 * them with `eld/small`'s). Without a cache folder, or if eld's files moved,
 * `eld/small` is imported as before.
 */
export async function loadIdentifierFast(
  cacheDir: string | undefined = process.env.NODE_COMPILE_CACHE ?? getCompileCacheDir(),
): Promise<{ eld: Identifier; source: IdentifierSource }> {
  const files = eldFiles();
  if (cacheDir !== undefined && files !== undefined) {
    const stat = statSync(files.small, { throwIfNoEntry: false });
    if (stat) {
      const cached = join(cacheDir, `eld-small-${stat.size}-${Math.trunc(stat.mtimeMs)}.json`);
      const made = await fromTables(files.detector, readTables(cached));
      if (made) return { eld: made, source: 'tables' };
      const { ngramsData } = (await import(files.smallUrl)) as { ngramsData: unknown };
      writeTables(cached, ngramsData);
    }
  }
  return { eld: (await import('eld/small')).eld, source: 'module' };
}

/** eld's detector and 'small' tables, where the installed package keeps them. */
function eldFiles(): { detector: string; small: string; smallUrl: string } | undefined {
  try {
    // The '.' entry is src/entries/dynamic.js; its siblings are the package's own files.
    const entry = import.meta.resolve('eld');
    const smallUrl = new URL('../ngrams/small.js', entry).href;
    return {
      detector: new URL('../languageDetector.js', entry).href,
      small: fileURLToPath(smallUrl),
      smallUrl,
    };
  } catch {
    return undefined; // no `import.meta.resolve` (a bundle's test runner): eld/small below
  }
}

function readTables(path: string): unknown {
  if (!ownFile(path)) return undefined; // none yet, or one this user did not write
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined; // cut short: made again from eld's module
  }
}

/** Written whole or not at all (a temporary file renamed), so a reader never sees half. */
function writeTables(path: string, data: unknown): void {
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    writeFileSync(temporary, JSON.stringify(data), { mode: 0o644 });
    renameSync(temporary, path);
  } catch {
    // A read-only or full cache folder: the next thread imports eld/small again, as before.
    rmSync(temporary, { force: true });
  }
}

/** An identifier over `data`, if it has the shape eld's loader takes and the loader is there. */
async function fromTables(detector: string, data: unknown): Promise<Identifier | undefined> {
  if (!isTables(data)) return undefined;
  try {
    const { createEld } = (await import(detector)) as {
      createEld: () => { instance: Identifier; loadData: (data: unknown) => string };
    };
    const { instance, loadData } = createEld();
    return loadData(data) === data.type ? instance : undefined;
  } catch {
    return undefined; // eld's files moved (another version): eld/small instead
  }
}

function isTables(data: unknown): data is { type: string; languages: object; ngrams: object } {
  if (typeof data !== 'object' || data === null) return false;
  const { type, languages, ngrams } = data as Record<string, unknown>;
  return (
    typeof type === 'string' &&
    typeof languages === 'object' &&
    languages !== null &&
    typeof ngrams === 'object' &&
    ngrams !== null
  );
}
