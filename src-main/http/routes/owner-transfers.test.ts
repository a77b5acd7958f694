import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NativeError } from '../../../src-shared/schemas/native.ts';
import { createTestApp } from '../testing/test-app.ts';

const GSM8K = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'resources',
  'datasets',
  'gsm8k_test_first300.jsonl',
);

/** The browser's side doors: upload a file, import it, export it, download it (over real routes). */
describe('uploads and downloads of the browser transport', () => {
  async function signedIn() {
    const app = createTestApp();
    const res = await app.request(`/?token=${app.sessions.issueToken()}`);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const owner = async (method: string, input: unknown) => {
      const answer = await app.request(`/owner/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify(input),
      });
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };
    const upload = async (name: string, body: string | Buffer) => {
      const answer = await app.request(`/owner-upload?name=${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { cookie },
        body: typeof body === 'string' ? body : new Uint8Array(body),
      });
      return (await answer.json()) as { upload_id: string; bytes: number };
    };
    return { app, cookie, owner, upload };
  }

  it('imports an upload, then deletes the uploaded copy; an export downloads once', async () => {
    const { app, cookie, owner, upload } = await signedIn();
    const text = readFileSync(GSM8K, 'utf8').split('\n').slice(0, 20).join('\n') + '\n';
    const { upload_id, bytes } = await upload('gsm8k sample.jsonl', text);
    expect(bytes).toBe(Buffer.byteLength(text));
    const preview = await owner('importPreview', { source: { upload_id } });
    expect(preview.body).toMatchObject({ file_name: 'gsm8k sample.jsonl', detected: 'gsm8k' });
    const imported = await owner('importDataset', {
      source: { upload_id },
      shape: 'gsm8k',
      name: 'sample',
    });
    expect(imported.body).toMatchObject({ rows: 20, errors: 0 });
    // the copy is gone once its rows are in the database
    expect(readdirSync(app.transfers.dir)).toEqual([]);
    expect((await owner('importPreview', { source: { upload_id } })).status).toBe(404);

    const exported = await owner('exportDataset', {
      dataset_id: imported.body['id'],
      format: 'jsonl',
    });
    const url = String(exported.body['download_url']);
    const download = await app.request(url, { headers: { cookie } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('sample.clean.jsonl');
    // What every response carries, a download too.
    expect(download.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    const rows = (s: string) =>
      s
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as unknown);
    expect(rows(await download.text())).toEqual(rows(text));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readdirSync(app.transfers.dir)).toEqual([]);
    const again = await app.request(url, { headers: { cookie } });
    expect(again.status).toBe(404);
  });

  it('names an unreadable upload as the user knows it, not by its temporary path', async () => {
    const { app, owner, upload } = await signedIn();
    const { upload_id } = await upload('garbage.csv', Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02]));
    const preview = await owner('importPreview', { source: { upload_id } });
    expect(preview.status).toBe(422);
    const { detail } = NativeError.parse(preview.body);
    expect(detail).toContain('garbage.csv');
    expect(detail).not.toContain(app.transfers.dir);
    expect(existsSync(app.transfers.dir)).toBe(true);
  });
});
