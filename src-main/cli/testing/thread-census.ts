import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Runs `command` (its environment `env` over this one's, without its SVC_
 * variables) and samples its threads' names from /proc every 5 ms: the most
 * threads of each name in `names` seen at once. Rejects if it fails.
 */
export function mostThreads(
  command: readonly string[],
  env: Record<string, string>,
  names: readonly string[],
): Promise<Record<string, number>> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('SVC_')),
  );
  const [file, ...args] = command as [string, ...string[]];
  return new Promise((done, fail) => {
    const child = spawn(file, args, {
      env: { ...clean, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const most: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]));
    const count = (): void => {
      const now: Record<string, number> = {};
      try {
        for (const task of readdirSync(`/proc/${child.pid}/task`)) {
          const name = readFileSync(`/proc/${child.pid}/task/${task}/comm`, 'utf8').trim();
          now[name] = (now[name] ?? 0) + 1;
        }
      } catch {
        return; // the process or a thread ended while read
      }
      for (const name of names) most[name] = Math.max(most[name] ?? 0, now[name] ?? 0);
    };
    const timer = setInterval(count, 5);
    child.on('error', fail);
    child.on('close', (code) => {
      clearInterval(timer);
      if (code === 0) done(most);
      else fail(new Error(`${command.join(' ')} exited with ${code}: ${stderr}`));
    });
  });
}
