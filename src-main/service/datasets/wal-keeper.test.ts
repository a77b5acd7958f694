import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { beginBulk, endBulk } from '../../store/bulk-writes.ts';
import { openDatabase, type Db } from '../../store/db.ts';
import { WalKeeper, type KeeperReport } from './wal-keeper.ts';

const opened: { db: Db; dir: string; keeper: WalKeeper | null }[] = [];

afterEach(async () => {
  for (const { db, dir, keeper } of opened.splice(0)) {
    await keeper?.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function keptDatabase(): { db: Db; keeper: WalKeeper } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-wal-keeper-'));
  const db = openDatabase(dir);
  const keeper = WalKeeper.start(db, { minMs: 5, maxMs: 50 });
  opened.push({ db, dir, keeper });
  if (!keeper) throw new Error('a database on disk gets a keeper');
  return { db, keeper };
}

/** Writes `commits` transactions of 200 rows of 1 KB each: thousands of WAL pages. */
function write(db: Db, commits: number): void {
  db.exec('CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, text TEXT)');
  const insert = db.prepare('INSERT INTO filler (text) VALUES (?)');
  for (let c = 0; c < commits; c++) {
    db.transaction(() => {
      for (let r = 0; r < 200; r++) insert.run('x'.repeat(1024));
    })();
  }
}

/** Resolves with the first report for which `done` holds. */
function reportWhere(keeper: WalKeeper, done: (r: KeeperReport) => boolean): Promise<KeeperReport> {
  return new Promise((resolve) => {
    const off = keeper.onReport((report) => {
      if (!done(report)) return;
      off();
      resolve(report);
    });
  });
}

describe('WalKeeper', () => {
  it('turns the main connection`s own checkpoints off and copies the WAL from its thread', async () => {
    const { db, keeper } = keptDatabase();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const copied = reportWhere(keeper, (r) => r.log > 1000 && r.checkpointed === r.log);
    write(db, 30);
    const report = await copied;
    expect(report.busy).toBe(0);
    // Everything the main connection wrote is in the database file: nothing left for it to copy.
    const [mine] = db.pragma('wal_checkpoint(PASSIVE)') as KeeperReport[];
    expect(mine!.checkpointed).toBe(mine!.log);
  });

  it('keeps copying after quiet spells, and gives the checkpoints back when stopped', async () => {
    const { db, keeper } = keptDatabase();
    write(db, 5);
    await reportWhere(keeper, (r) => r.log > 0 && r.checkpointed === r.log);
    // Past its longest back-off, new writes are copied too.
    await new Promise((resolve) => setTimeout(resolve, 120));
    const again = reportWhere(keeper, (r) => r.checkpointed === r.log && r.log > 0);
    write(db, 5);
    keeper.now();
    await again;
    await keeper.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('waits while an import writes, and goes on after it', async () => {
    const { db, keeper } = keptDatabase();
    // Its thread has started: it reports its first look.
    await reportWhere(keeper, () => true);
    const reports: KeeperReport[] = [];
    keeper.onReport((report) => reports.push(report));
    beginBulk(db);
    write(db, 10);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(reports.filter((r) => r.log > 0)).toEqual([]);
    endBulk(db);
    const after = reportWhere(keeper, (r) => r.log > 0 && r.checkpointed === r.log);
    write(db, 5);
    await after;
  });

  it('is not started for a database in memory', () => {
    const db = openDatabase(':memory:');
    expect(WalKeeper.start(db)).toBeNull();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();
  });
});
