// `npm start -w examples/<name>` from a fresh clone, where nothing is built yet: each example's
// start script builds what it needs (scripts/build-if-stale.mjs) before running its server. The
// test copies the repository's files (as git lists them: no dist/, no data/) into a folder of its
// own, whose node_modules links to the repository's installed packages but to its own workspaces,
// runs the start script there with PORT=0 and asks the server for its books.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));

/** The repository as a fresh clone has it, with the dependencies `npm ci` installed. */
function freshClone(): string {
  const clone = mkdtempSync(join(tmpdir(), 'resourcery-clone-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  for (const file of files.split('\0').filter(Boolean)) {
    if (!existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(root, file), join(clone, file));
  }
  const modules = join(clone, 'node_modules');
  mkdirSync(join(modules, '@resourcery'), { recursive: true });
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry !== '@resourcery') symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
  }
  // The workspaces are the clone's own, as npm links them.
  const { workspaces } = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { workspaces: string[] };
  for (const workspace of workspaces) {
    const { name } = JSON.parse(readFileSync(join(clone, workspace, 'package.json'), 'utf8')) as { name: string };
    symlinkSync(join(clone, workspace), join(modules, name), 'dir');
  }
  return clone;
}

/** Runs `npm start -w <example>` in `clone` until it prints its URL; answers the port and the output. */
async function npmStart(
  clone: string,
  example: string,
): Promise<{ child: ChildProcess; port: number; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0' };
  delete env.DATABASE_URL;
  const child = spawn('npm', ['start', '-w', example], {
    cwd: clone,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/localhost:(\d+)\/api\/books/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`npm start -w ${example} exited with ${code}:\n${output}`)));
  });
  return { child, port, output };
}

describe('npm start -w examples/<name> on a fresh clone', () => {
  let clone: string;
  beforeAll(() => {
    clone = freshClone();
  }, 120_000);
  afterAll(() => {
    if (clone) rmSync(clone, { recursive: true, force: true });
  });

  for (const example of ['examples/library', 'examples/books']) {
    it(`${example} builds what it needs, then serves`, { timeout: 300_000 }, async () => {
      const { child, port, output } = await npmStart(clone, example);
      try {
        expect(output).toMatch(/building @resourcery\/core|built \d+ of \d+ workspaces/);
        const response = await fetch(`http://127.0.0.1:${port}/api/books`);
        expect(response.status).toBe(200);
        expect(Object.keys(await response.json())).toEqual(['books']);
      } finally {
        if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      }
    });
  }
});
