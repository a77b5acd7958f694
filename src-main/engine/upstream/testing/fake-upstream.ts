import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real OpenAI-compatible HTTP server for the tests (node:http on
 * 127.0.0.1:0), scripted per test: each chat completion request is answered
 * by the script, which sees what was asked. `GET /v1/models` lists `models`.
 */

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatBody;
  /** From the prompt's first line `svc task: <operation> <task_type>`. */
  operation: string;
  taskType: string;
  system: string;
  /** The first user message (the sample). */
  user: string;
  /** The last message (a correction request on a retry). */
  last: string;
}

export interface ChatBody {
  model?: string;
  messages?: { role: string; content: string }[];
  temperature?: number;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
  [key: string]: unknown;
}

export type Reply =
  | { status?: number; json: unknown; headers?: Record<string, string>; delayMs?: number }
  | {
      status?: number;
      text: string;
      contentType?: string;
      headers?: Record<string, string>;
      delayMs?: number;
    }
  | { destroy: true };

export type Script = (request: SeenRequest, index: number) => Reply;

export interface FakeUpstream {
  /** The API root, `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** Every chat completion request, in arrival order. */
  requests: SeenRequest[];
  /** Requests whose client hung up before the answer was sent. */
  readonly abandoned: number;
  /** The most requests in flight at once. */
  readonly peak: number;
  script: Script;
  models: string[];
  close(): Promise<void>;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** A chat completion whose content is `content` (objects are sent as JSON text). */
export function completion(
  content: unknown,
  usage: Usage | null = { prompt_tokens: 100, completion_tokens: 20 },
  extra: { status?: number; delayMs?: number; headers?: Record<string, string> } = {},
): Reply {
  return {
    ...extra,
    json: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 0,
      model: 'fake-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: typeof content === 'string' ? content : JSON.stringify(content),
          },
          finish_reason: 'stop',
        },
      ],
      ...(usage
        ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }
        : {}),
    },
  };
}

/** An OpenAI-style error body with a status. */
export function failure(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Reply {
  return {
    status,
    headers,
    json: { error: { message, type: 'server_error', param: null, code: null } },
  };
}

/** The letter under which a prompt shows `choice` (`A. "42"` lines). */
export function letterOf(user: string, choice: string): string {
  const line = user.split('\n').find((l) => l.slice(3) === JSON.stringify(choice));
  if (!line) throw new Error(`choice ${choice} not shown in: ${user}`);
  return line.slice(0, 1);
}

/** The choices in the order a prompt shows them. */
export function shownChoices(user: string): string[] {
  return user
    .split('\n')
    .filter((l) => /^[A-Z]\. "/.test(l))
    .map((l) => JSON.parse(l.slice(3)) as string);
}

export async function startFakeUpstream(
  script: Script,
  models: string[] = ['fake-model'],
): Promise<FakeUpstream> {
  let abandoned = 0;
  let inFlight = 0;
  let peak = 0;
  const state: FakeUpstream = {
    url: '',
    requests: [],
    get abandoned() {
      return abandoned;
    },
    get peak() {
      return peak;
    },
    script,
    models,
    close: () => Promise.resolve(),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (req.method === 'GET' && path === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            data: state.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
          }),
        );
        return;
      }
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${path}` } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as ChatBody;
      const messages = body.messages ?? [];
      const system = messages.find((m) => m.role === 'system')?.content ?? '';
      const task = /^svc task: (\w+) (\w+)/.exec(system);
      const seen: SeenRequest = {
        method: req.method,
        path,
        headers: req.headers,
        body,
        operation: task?.[1] ?? '',
        taskType: task?.[2] ?? '',
        system,
        user: messages.find((m) => m.role === 'user')?.content ?? '',
        last: messages.at(-1)?.content ?? '',
      };
      const index = state.requests.length;
      state.requests.push(seen);
      inFlight++;
      peak = Math.max(peak, inFlight);
      let timer: NodeJS.Timeout | undefined;
      res.on('close', () => {
        inFlight--;
        if (!res.writableFinished) {
          abandoned++;
          clearTimeout(timer);
        }
      });
      let reply: Reply;
      try {
        reply = state.script(seen, index);
      } catch (error) {
        reply = failure(500, `the test script threw: ${(error as Error).message}`);
      }
      if ('destroy' in reply) {
        req.socket.destroy();
        return;
      }
      const send = (): void => {
        if (res.destroyed) return;
        const headers = reply.headers ?? {};
        if ('json' in reply) {
          res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(reply.json));
        } else {
          res.writeHead(reply.status ?? 200, {
            'content-type': reply.contentType ?? 'text/plain',
            ...headers,
          });
          res.end(reply.text);
        }
      };
      if (reply.delayMs) timer = setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** A port nothing listens on (bound, then closed), for refused connections. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
