import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleExampleServer } from '../../../scripts/bundle-example-server.mjs';

// `npm start -w examples/tracker` runs the built server (`node dist/server.js`). The test bundles
// src/server.ts with the workspace packages taken from their sources into a folder of its own,
// starts it as a process on PORT=0, and tries it as the README says: a token from
// scripts/token.mjs, then curl-like requests.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const folder = join(root, 'node_modules/.cache', `resourcery-tracker-${process.pid}-${Date.now()}`);
const bundle = join(folder, 'dist/server.mjs');
const tokenScript = fileURLToPath(new URL('../scripts/token.mjs', import.meta.url));

interface Running {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

async function start(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, PORT: '0', TRACKER_JWT_SECRET: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start:\n${output}`));
    }, 15_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/localhost:(\d+)\/api\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
  return { child, baseUrl: `http://127.0.0.1:${port}/api`, output: () => output };
}

async function stop(server: Running): Promise<number | null> {
  if (server.child.exitCode !== null) return server.child.exitCode;
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  return code;
}

/** A token from the example's script, as the README shows it. */
async function token(args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [tokenScript, ...args], {
    env: { ...process.env, TRACKER_JWT_SECRET: '', ...env },
  });
  return stdout.trim();
}

function request(baseUrl: string, path: string, bearer?: string, body?: unknown) {
  const headers: Record<string, string> = bearer ? { authorization: `Bearer ${bearer}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('the tracker server (npm start) and its token script', () => {
  const running: Running[] = [];
  beforeAll(() => bundleExampleServer('', 'server.ts', { example: 'tracker', outfile: bundle }), 60_000);
  afterAll(() => {
    for (const server of running) server.child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  });

  it('starts on PORT=0 with DATABASE_URL=memory:, asks for a token, answers one from scripts/token.mjs', async () => {
    const server = await start({ DATABASE_URL: 'memory:' });
    running.push(server);
    expect(server.output()).toMatch(
      /^Tracker API on memory:: http:\/\/localhost:\d+\/api\/issues \(.*token\.mjs.*\)\n$/,
    );
    const anonymous = await request(server.baseUrl, '/issues');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const admin = await token(['--sub', '1', '--org', '1', '--role', 'admin']);
    const project = await request(server.baseUrl, '/projects', admin, { name: 'Roadmap' });
    expect(project.status).toBe(200);
    expect(((await project.json()) as { project: { orgId: number } }).project.orgId).toBe(1);
    const viewer = await token(['--sub', '2', '--org', '1', '--role', 'viewer', '--expires', '1h']);
    const listed = await request(server.baseUrl, '/projects', viewer);
    expect(((await listed.json()) as { projects: { name: string }[] }).projects.map((p) => p.name)).toEqual([
      'Roadmap',
    ]);
    const other = await token(['--sub', '3', '--org', '2', '--role', 'admin']);
    expect(await (await request(server.baseUrl, '/projects', other)).json()).toEqual({ projects: [] });
    expect(await stop(server)).toBe(0);
  });

  it('verifies tokens with TRACKER_JWT_SECRET when it is set', async () => {
    const secret = 'a-secret-of-this-deployment';
    const server = await start({ DATABASE_URL: 'memory:', TRACKER_JWT_SECRET: secret });
    running.push(server);
    expect(server.output()).toContain('signed with TRACKER_JWT_SECRET');
    const development = await token(['--sub', '1', '--org', '1', '--role', 'admin']);
    expect((await request(server.baseUrl, '/issues', development)).status).toBe(401);
    const deployed = await token(['--sub', '1', '--org', '1', '--role', 'admin'], { TRACKER_JWT_SECRET: secret });
    expect((await request(server.baseUrl, '/issues', deployed)).status).toBe(200);
    expect(await stop(server)).toBe(0);
  });

  it('the token script refuses a missing or malformed claim with its usage', async () => {
    for (const args of [
      [],
      ['--sub', '0', '--org', '1', '--role', 'admin'],
      ['--sub', '1', '--org', '1', '--role', 'owner'],
    ]) {
      const failed = await token(args).catch((error: { code: number; stderr: string }) => error);
      expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('usage:') });
    }
  });
});
