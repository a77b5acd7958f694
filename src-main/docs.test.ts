import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Keeps the README, ARCHITECTURE.md and docs/ true where that is cheap to
 * check: links lead somewhere, the paths and functions they name exist, the
 * `svc` commands they name are commands the CLI knows, and the blocks marked
 * `<!-- docs-test: run -->` (or `run with svc serve`) run as written. A
 * failure lists every stale name at once, so one run finds them all.
 */

const ROOT = resolve(import.meta.dirname, '..');
const SVC = join(ROOT, 'bin', 'svc.js');
const README_MAX_LINES = 250;
const RUN_TIMEOUT_MS = 180_000;
const execFileAsync = promisify(execFile);

interface Doc {
  /** Relative to the repository's root, e.g. `docs/cli.md`. */
  readonly name: string;
  readonly text: string;
}

const DOCS: readonly Doc[] = [
  'README.md',
  'ARCHITECTURE.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
].map((name) => ({ name, text: readFileSync(join(ROOT, name), 'utf8') }));

const FENCE = /^```[^\n]*\n[\s\S]*?^```$/gm;

/** The prose of a document: fenced blocks and inline code removed. */
const prose = (text: string): string => text.replace(FENCE, '').replace(/`[^`\n]*`/g, '');

/** Inline code spans outside fenced blocks, as written (a table's `\|` read as `|`). */
const inlineCode = (text: string): string[] =>
  [...text.replace(FENCE, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.replaceAll('\\|', '|'));

/** Fenced blocks' bodies. */
const fencedCode = (text: string): string[] =>
  [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

/** A named thing that was not found, with the document that names it. */
const missing = (doc: Doc, what: string): string => `${doc.name}: ${what}`;

describe('the docs', () => {
  it(`README.md is under ${README_MAX_LINES} lines`, () => {
    const lines = DOCS[0]!.text.split('\n').length;
    expect(lines, 'README.md grew: move the detail to docs/').toBeLessThan(README_MAX_LINES);
  });

  it('every relative link leads to a file or folder of the repository, without an anchor', () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      for (const [, target] of prose(doc.text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:
        if (target!.includes('#'))
          broken.push(missing(doc, `${target!} (no anchors: link the file)`));
        else if (!existsSync(resolve(ROOT, dirname(doc.name), target!))) {
          broken.push(missing(doc, target!));
        }
      }
    }
    expect(broken, 'links to nothing').toEqual([]);
  });

  it('every repository path named in backticks exists', () => {
    const path =
      /^(?:src-shared|src-main|src-renderer|bench|e2e|resources|bin|docs|\.ci|\.githooks)(?:\/[\w.@-]+)*\/?$/;
    const absent = DOCS.flatMap((doc) =>
      inlineCode(doc.text)
        .filter((code) => path.test(code) && !existsSync(join(ROOT, code)))
        .map((code) => missing(doc, code)),
    );
    expect([...new Set(absent)], 'paths the docs name that the repository lacks').toEqual([]);
  });

  it('every function named as `name()` exists in the sources', () => {
    const sources = sourceTexts();
    const absent = DOCS.flatMap((doc) =>
      inlineCode(doc.text)
        .map((code) => /^([A-Za-z_$][\w$]*)\(\)$/.exec(code)?.[1])
        .filter((name): name is string => name !== undefined)
        .filter((name) => !new RegExp(`\\b${name.replace('$', '\\$')}\\b`).test(sources))
        .map((name) => missing(doc, `${name}()`)),
    );
    expect([...new Set(absent)], 'functions the docs name that the sources lack').toEqual([]);
  });

  it('every `svc` command the docs name is one the CLI knows', () => {
    const known = cliCommands();
    const unknown: string[] = [];
    for (const doc of DOCS) {
      const code = [...inlineCode(doc.text), ...fencedCode(doc.text)].join('\n');
      for (const [, names, sub] of code.matchAll(
        /\bsvc ([a-z][a-z-]*(?:\|[a-z][a-z-]*)*)(?: ([a-z][a-z-]*)\b)?/g,
      )) {
        for (const name of names!.split('|')) {
          const subcommands = known.get(name);
          if (!subcommands) unknown.push(missing(doc, `svc ${name}`));
          else if (sub && subcommands.size > 0 && !subcommands.has(sub)) {
            unknown.push(missing(doc, `svc ${name} ${sub}`));
          }
        }
      }
    }
    expect([...new Set(unknown)], 'commands `svc --help` does not list').toEqual([]);
  });
});

/** Every TypeScript source of the project (tests included: a helper may live there), as one text. */
function sourceTexts(): string {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name)) texts.push(readFileSync(path, 'utf8'));
    }
  };
  for (const dir of ['src-shared', 'src-main', 'src-renderer', 'bench', 'e2e'])
    walk(join(ROOT, dir));
  return texts.join('\n');
}

/**
 * The commands of `svc --help`, each with its subcommands (`keys`: create,
 * list, revoke), read from the lines under `commands:`.
 */
function cliCommands(): Map<string, Set<string>> {
  const help = spawnSync(process.execPath, [SVC, '--help'], { encoding: 'utf8' });
  expect(help.status, help.stderr).toBe(0);
  const section = help.stdout.split('\n\n').find((part) => part.startsWith('commands:')) ?? '';
  const commands = new Map<string, Set<string>>();
  for (const [, names, rest] of section.matchAll(/^ {2}svc ([a-z][a-z|-]*)(.*)$/gm)) {
    const alternatives = rest!
      .trim()
      .split(/\s{3,}/)[0]!
      .split(' | ');
    const subcommands = new Set(
      alternatives.length > 1 ? alternatives.map((alt) => alt.trim().split(' ')[0]!) : [],
    );
    for (const name of names!.split('|')) commands.set(name, subcommands);
  }
  expect(commands.size, `no commands read from svc --help:\n${help.stdout}`).toBeGreaterThan(3);
  return commands;
}

// ---------------------------------------------------------------------------
// The documented commands, run.

interface RunnableBlock {
  readonly doc: string;
  readonly language: string;
  readonly withServer: boolean;
  readonly code: string;
}

const RUNNABLE: readonly RunnableBlock[] = DOCS.flatMap((doc) =>
  [
    ...doc.text.matchAll(
      /<!-- docs-test: run( with svc serve)? -->\s*\n```(\w+)\n([\s\S]*?)^```$/gm,
    ),
  ].map((m) => ({ doc: doc.name, withServer: m[1] !== undefined, language: m[2]!, code: m[3]! })),
);

/** The address the docs write, replaced by the test server's. */
const DOCUMENTED_URL = 'http://127.0.0.1:7331';

/** How `npx svc` and `curl` behave inside a block: this checkout's CLI, and HTTP errors fail. */
const SHELL_PRELUDE = `set -euo pipefail
npx() { if [ "$1" = svc ]; then shift; "$SVC_NODE" "$SVC_BIN" "$@"; else command npx "$@"; fi; }
curl() { command curl --fail-with-body "$@"; }
`;

const hasCommand = (name: string): boolean =>
  spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;

const scratchDir = (prefix: string): string => mkdtempSync(join(tmpdir(), `svc-docs-${prefix}-`));

/**
 * Runs a block. Shell blocks run from a scratch folder that sees the
 * repository's `resources/` (so the documented paths work and nothing is
 * written into the checkout); JavaScript runs from the root, where its
 * imports resolve.
 */
async function runBlock(
  block: RunnableBlock,
  env: NodeJS.ProcessEnv,
  baseUrl?: string,
): Promise<string> {
  const code = baseUrl ? block.code.replaceAll(DOCUMENTED_URL, baseUrl) : block.code;
  const options = { env: { ...process.env, ...env }, timeout: RUN_TIMEOUT_MS, maxBuffer: 64 << 20 };
  try {
    if (block.language !== 'sh' && block.language !== 'js') {
      throw new Error(`no way to run a ${block.language} block`);
    }
    if (block.language === 'js') {
      const { stdout } = await execFileAsync(
        process.execPath,
        ['--input-type=module', '-e', code],
        { ...options, cwd: ROOT },
      );
      return stdout;
    }
    const cwd = scratchDir('run');
    symlinkSync(join(ROOT, 'resources'), join(cwd, 'resources'));
    try {
      const { stdout } = await execFileAsync('bash', ['-c', SHELL_PRELUDE + code], {
        ...options,
        cwd,
      });
      expect(unreadableOutputs(cwd), `files ${block.doc}'s block wrote`).toEqual([]);
      return stdout;
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  } catch (error) {
    const failed = error as { stderr?: string; message: string };
    throw new Error(
      `a documented block of ${block.doc} failed:\n${code}\n${failed.stderr ?? failed.message}`,
      { cause: error },
    );
  }
}

/** The JSON and JSON Lines files a block wrote that do not parse (an empty one counts). */
function unreadableOutputs(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.jsonl?$/.test(file) && !file.startsWith('resources'))
    .filter((file) => {
      const text = readFileSync(join(dir, file), 'utf8').trim();
      try {
        const lines = file.endsWith('.jsonl') ? text.split('\n') : [text];
        lines.forEach((line) => JSON.parse(line) as unknown);
        return text === '';
      } catch {
        return true;
      }
    });
}

/** The environment every run gets: this checkout's CLI, and the engine on the calling thread. */
const runEnv = (dataDir: string): NodeJS.ProcessEnv => ({
  SVC_NODE: process.execPath,
  SVC_BIN: SVC,
  SVC_DATA_DIR: dataDir,
  // The engine's worker threads give identical results (their own tests say so); without them
  // these runs spare the cores of the rest of the suite.
  SVC_ENGINE_WORKERS: '0',
});

const svc = (args: string[], dataDir: string) =>
  spawnSync(process.execPath, [SVC, ...args, '--data-dir', dataDir], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, SVC_ENGINE_WORKERS: '0' },
    timeout: RUN_TIMEOUT_MS,
  });

describe.skipIf(!hasCommand('bash'))('the documented commands', () => {
  const dataDir = scratchDir('data');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('the README marks its command-line and /v1 examples to be run here', () => {
    const ofReadme = RUNNABLE.filter((block) => block.doc === 'README.md');
    expect(ofReadme.some((block) => !block.withServer)).toBe(true);
    expect(ofReadme.some((block) => block.withServer && block.language === 'sh')).toBe(true);
    expect(ofReadme.some((block) => block.withServer && block.language === 'js')).toBe(true);
  });

  it('svc keys create prints one key and nothing else on stdout', () => {
    const run = svc(['keys', 'create'], dataDir);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^svc_[\w-]+\n$/);
  });

  it('svc credits show shows the local credit of a fresh install', () => {
    const run = svc(['credits', 'show'], dataDir);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^balance\s+\$5\.00$/m);
  });

  for (const block of RUNNABLE.filter((b) => !b.withServer)) {
    it(
      `runs as written: a ${block.language} block of ${block.doc}`,
      async () => {
        const blockData = scratchDir('block');
        try {
          await runBlock(block, runEnv(blockData));
        } finally {
          rmSync(blockData, { recursive: true, force: true });
        }
      },
      RUN_TIMEOUT_MS,
    );
  }
});

describe.skipIf(!hasCommand('bash') || !hasCommand('curl'))(
  'the documented requests, against svc serve',
  () => {
    const dataDir = scratchDir('serve');
    let server: ChildProcess | undefined;
    let baseUrl = '';
    let apiKey = '';

    beforeAll(async () => {
      server = spawn(process.execPath, [SVC, 'serve', '--port', '0', '--data-dir', dataDir], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, SVC_ENGINE_WORKERS: '0' },
      });
      for await (const line of createInterface({ input: server.stdout! })) {
        const listening = /^listening on (http:\/\/\S+)$/.exec(line);
        if (listening) {
          baseUrl = listening[1]!;
          break;
        }
      }
      if (!baseUrl) throw new Error('svc serve exited before it printed its address');
      apiKey = svc(['keys', 'create'], dataDir).stdout.trim();
    }, RUN_TIMEOUT_MS);

    afterAll(async () => {
      if (server && server.exitCode === null) {
        const exited = new Promise((done) => server!.once('exit', done));
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    });

    for (const block of RUNNABLE.filter((b) => b.withServer)) {
      it(
        `runs as written: a ${block.language} block of ${block.doc}`,
        async () => {
          await runBlock(block, { ...runEnv(dataDir), SVC_API_KEY: apiKey }, baseUrl);
        },
        RUN_TIMEOUT_MS,
      );
    }
  },
);
