import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { getCompileCacheDir } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { eld as reference } from 'eld/small';
import { compileCacheFolder, loadIdentifierFast, type Identifier } from './eld-tables.ts';

/** Sentences in several scripts and languages, and a few texts no language is sure of. */
const TEXTS = [
  'The weather was fine and the children played outside until dark.',
  'Le chat dort sur le canapé pendant que la pluie tombe dehors.',
  'Der Zug kam pünktlich an, und alle Fahrgäste stiegen schnell aus.',
  'El mercado abre temprano y los vecinos compran pan fresco cada día.',
  'Поезд прибыл вовремя, и все пассажиры быстро вышли из вагонов.',
  'Το τρένο έφτασε στην ώρα του και όλοι οι επιβάτες κατέβηκαν γρήγορα.',
  '列车准时到达，所有乘客都迅速下车了。',
  '電車は時間通りに到着し、乗客は皆すぐに降りました。',
  'القطار وصل في الوقت المحدد ونزل جميع الركاب بسرعة.',
  'रेलगाड़ी समय पर पहुँची और सभी यात्री जल्दी उतर गए।',
  'Pociąg przyjechał punktualnie i wszyscy pasażerowie szybko wysiedli.',
  'x = 3; y = 4; print(x + y)',
  '42',
  '',
];

/** What an identifier says of a text: its label, reliability and every language's score. */
const said = (eld: Identifier, text: string): unknown => {
  const result = eld.detect(text);
  return [result.language, result.isReliable(), result.getScores()];
};

const cacheDir = (): string => mkdtempSync(join(tmpdir(), 'svc-eld-'));

describe('loadIdentifierFast', () => {
  it('writes the tables once, then reads them, and identifies as eld/small does', async () => {
    const dir = cacheDir();
    const first = await loadIdentifierFast(dir);
    expect(first.source).toBe('module');
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/^eld-small-\d+-\d+\.json$/)]);
    const second = await loadIdentifierFast(dir);
    expect(second.source).toBe('tables');
    for (const text of TEXTS) expect(said(second.eld, text), text).toEqual(said(reference, text));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.lorem()), (text) => {
        expect(said(second.eld, text)).toEqual(said(reference, text));
      }),
      { numRuns: 300 },
    );
  }, 30_000);

  it('makes the tables again from eld where the copy is cut short or holds no tables', async () => {
    const dir = cacheDir();
    await loadIdentifierFast(dir);
    const [name] = readdirSync(dir);
    const path = join(dir, name as string);
    const whole = readFileSync(path, 'utf8');
    for (const broken of [
      whole.slice(0, whole.length / 2),
      JSON.stringify({ type: '', languages: {}, ngrams: {} }),
      JSON.stringify({ type: 'S60', languages: {}, ngrams: {} }),
    ]) {
      writeFileSync(path, broken);
      const loaded = await loadIdentifierFast(dir);
      expect(loaded.source).toBe('module');
      expect(said(loaded.eld, TEXTS[2] as string)).toEqual(said(reference, TEXTS[2] as string));
      expect(readFileSync(path, 'utf8')).toBe(whole);
      expect((await loadIdentifierFast(dir)).source).toBe('tables');
    }
  }, 30_000);

  it("removes the copies of other eld versions when it writes this one's", async () => {
    const dir = cacheDir();
    writeFileSync(join(dir, 'eld-small-1-2.json'), '{}');
    writeFileSync(join(dir, 'other-cache.json'), '{}');
    await loadIdentifierFast(dir);
    expect(readdirSync(dir).sort()).toEqual([
      expect.stringMatching(/^eld-small-\d+-\d+\.json$/),
      'other-cache.json',
    ]);
    expect(readdirSync(dir)).not.toContain('eld-small-1-2.json');
  }, 30_000);

  it('does not read a copy that others may write (a shared temporary folder)', async () => {
    const dir = cacheDir();
    await loadIdentifierFast(dir);
    const path = join(dir, readdirSync(dir)[0] as string);
    chmodSync(path, 0o666);
    expect((await loadIdentifierFast(dir)).source).toBe('module');
    // Replaced by one of its own, which is read from then on.
    expect(statSync(path).mode & 0o022).toBe(0);
    expect((await loadIdentifierFast(dir)).source).toBe('tables');
  }, 30_000);

  it("uses eld's module where no cache folder is, or none can be written", async () => {
    const none = await loadIdentifierFast(join(cacheDir(), 'missing'));
    expect(none.source).toBe('module');
    expect(said(none.eld, TEXTS[1] as string)).toEqual(said(reference, TEXTS[1] as string));
    if (process.getuid?.() !== 0) {
      // root writes into a folder without write permission: only checked as another user
      const locked = cacheDir();
      chmodSync(locked, 0o500);
      expect((await loadIdentifierFast(locked)).source).toBe('module');
      expect(readdirSync(locked)).toEqual([]);
    }
  }, 30_000);
});

describe('compileCacheFolder', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("is Node's compile cache folder, none when it is empty or turned off", () => {
    process.env.NODE_COMPILE_CACHE = '/some/folder';
    delete process.env.NODE_DISABLE_COMPILE_CACHE;
    expect(compileCacheFolder()).toBe('/some/folder');
    process.env.NODE_DISABLE_COMPILE_CACHE = '1';
    expect(compileCacheFolder()).toBeUndefined();
    delete process.env.NODE_DISABLE_COMPILE_CACHE;
    process.env.NODE_COMPILE_CACHE = '';
    // Not the working folder (''): the folder this process's Node uses, if any.
    expect(compileCacheFolder()).toBe(getCompileCacheDir());
  });
});
