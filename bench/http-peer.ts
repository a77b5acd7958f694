import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { z } from 'zod';
import { ChatCompletionRequest } from '../src-shared/schemas/openai.ts';
import { Sample } from '../src-shared/schemas/sample.ts';

/**
 * The bare peer of `/v1/chat/completions` (issue 14): a Hono route on the
 * same Node HTTP adapter doing the request's unavoidable work and nothing
 * else: the JSON parse, the zod validation of the body and of the samples
 * in the last user message, and one SQLite write in WAL mode with
 * synchronous=FULL (one fsync'd commit), through a statement prepared once.
 * No auth, no rate limit, no engine, no hold: what `/v1` costs beyond this
 * is the service's own price.
 */
export interface Peer {
  url: string;
  close(): Promise<void>;
}

const Samples = z.array(Sample).min(1);

export function startPeer(dataDir: string): Promise<Peer> {
  const db = new Database(join(dataDir, 'peer.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE IF NOT EXISTS requests (
    id INTEGER PRIMARY KEY,
    request_id TEXT NOT NULL,
    model TEXT NOT NULL,
    samples INTEGER NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
  )`);
  const insert = db.prepare('INSERT INTO requests (request_id, model, samples) VALUES (?, ?, ?)');
  const app = new Hono();
  app.post('/v1/chat/completions', async (c) => {
    const body = ChatCompletionRequest.parse(await c.req.json());
    const last = body.messages.findLast((m) => m.role === 'user');
    const content = typeof last?.content === 'string' ? last.content : '[]';
    const samples = Samples.parse(JSON.parse(content));
    const id = `chatcmpl-${randomBytes(12).toString('hex')}`;
    insert.run(id, body.model, samples.length);
    return c.json({
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: JSON.stringify(samples), refusal: null },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
      const { port } = info;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => {
              db.close();
              done();
            });
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
  });
}
