import { readdirSync, rmSync, statSync } from 'node:fs';
import { getCompileCacheDir } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOwnFile, writeOwnFile } from '../own-file.ts';

/** What `eld/small` exports: the identifier with its 'small' (60 languages) tables loaded. */
export type Identifier = (typeof import('eld/small'))['eld'];

/** Where the identifier came from: its tables read from our JSON copy, or eld's own module. */
export type IdentifierSource = 'tables' | 'module';

/**
 * The folder Node keeps its compile cache in for this process (`bin/svc.js`
 * sets NODE_COMPILE_CACHE for every thread), unless turned off.
 */
export function compileCacheFolder(): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  return process.env.NODE_COMPILE_CACHE || getCompileCacheDir();
}

/**
 * eld ships its n-gram tables as a 1.6 MB JavaScript object literal (81,206
 * keys); evaluating it costs ~215 ms of CPU with Node's compile cache and
 * ~300 ms without, once in every thread that identifies languages (each file
 * pass, each dataset scan). The same object read by `JSON.parse` costs
 * ~80 ms. So the tables are written once as JSON into the compile cache's
 * folder (named by the size and time of eld's file, so another eld version
 * writes another and the older is removed) and later threads read that,
 * handing it to the same loader `eld/small` uses (`createEld` and
 * `loadData` from eld's own languageDetector.js: the package exports no
 * loader for data from elsewhere). Identification is eld's code over the
 * same tables: the labels are the same (eld-tables.test.ts compares them
 * with `eld/small`'s). Without a cache folder, or if eld's files moved,
 * `eld/small` is imported as before.
 */
export async function loadIdentifierFast(
  cacheDir: string | undefined = compileCacheFolder(),
): Promise<{ eld: Identifier; source: IdentifierSource }> {
  const files = eldFiles();
  const stat = files && statSync(files.small, { throwIfNoEntry: false });
  if (!cacheDir || !files || !stat) return fromModule();
  const name = `eld-small-${stat.size}-${Math.trunc(stat.mtimeMs)}.json`;
  const cached = join(cacheDir, name);
  const tables = readTables(cached);
  const loader = await eldLoader(files.detector);
  if (!loader) return fromModule(); // eld's files moved (another version): its module as before
  const made = tables === undefined ? undefined : identifierOf(loader, tables);
  if (made) return { eld: made, source: 'tables' };
  const { ngramsData } = (await import(files.smallUrl)) as { ngramsData: unknown };
  writeTables(cacheDir, name, ngramsData);
  return fromModule();
}

const fromModule = async (): Promise<{ eld: Identifier; source: IdentifierSource }> => ({
  eld: (await import('eld/small')).eld,
  source: 'module',
});

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

/** The tables as written, if this user wrote them (see own-file.ts) and they are whole JSON. */
function readTables(path: string): unknown {
  const text = readOwnFile(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // cut short: written again below
  }
}

/** The copy written (see own-file.ts); the copies of other eld versions (installs before) removed. */
function writeTables(dir: string, name: string, data: unknown): void {
  try {
    writeOwnFile(join(dir, name), JSON.stringify(data));
    for (const other of readdirSync(dir)) {
      if (/^eld-small-\d+-\d+\.json$/.test(other) && other !== name) {
        rmSync(join(dir, other), { force: true });
      }
    }
  } catch {
    // A read-only or full cache folder: the next thread imports eld/small again, as before.
  }
}

type EldLoader = () => { instance: Identifier; loadData: (data: unknown) => string };

/** eld's own `createEld`, or undefined where its file is not where eld 2 keeps it. */
async function eldLoader(detector: string): Promise<EldLoader | undefined> {
  try {
    const { createEld } = (await import(detector)) as { createEld?: unknown };
    return typeof createEld === 'function' ? (createEld as EldLoader) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An identifier over `data`, if it has the shape eld's loader takes and
 * identifies a text (a file of the right shape but empty tables would
 * throw on every text): undefined otherwise, and the copy is written again.
 */
function identifierOf(createEld: EldLoader, data: unknown): Identifier | undefined {
  if (!isTables(data)) return undefined;
  try {
    const { instance, loadData } = createEld();
    if (loadData(data) !== data.type) return undefined;
    return instance.detect('The tables are loaded and answer.').language === 'en'
      ? instance
      : undefined;
  } catch {
    return undefined;
  }
}

function isTables(data: unknown): data is { type: string; languages: object; ngrams: object } {
  if (typeof data !== 'object' || data === null) return false;
  const { type, languages, ngrams } = data as Record<string, unknown>;
  return (
    typeof type === 'string' &&
    type !== '' &&
    typeof languages === 'object' &&
    languages !== null &&
    typeof ngrams === 'object' &&
    ngrams !== null
  );
}
