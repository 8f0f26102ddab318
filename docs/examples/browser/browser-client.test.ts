// The browser set-up of docs/client.md: the client's calls run against the server's declaration
// over HTTP, and the browser project compiles with `tsc` without experimentalDecorators, reading
// the server's types through a project reference. The two projects are compiled in a copy under
// node_modules/.cache, against the built packages (as a browser project installs them).
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryStore } from '@resourcery/core';
import { createListener } from '@resourcery/node';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issues, projects } from './server/issues.js';
import { issueClient, reportCrash } from './web/issues.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const here = fileURLToPath(new URL('./', import.meta.url));
const copy = join(root, 'node_modules/.cache', `resourcery-browser-${process.pid}`);

/** Runs a command of the repository's `node_modules/.bin` (or node itself); answers its exit code and output. */
function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}
const tsc = (args: string[]) => run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), ...args], copy);

describe('the typed client in a browser project (docs/client.md)', () => {
  let target: HttpSuiteTarget;
  beforeAll(async () => {
    // Each request belongs to organization 7, as a session would say.
    const listener = createListener({
      resources: [projects, issues],
      store: memoryStore(),
      basePath: '/api',
      state: () => ({ orgId: 7 }),
    });
    target = await serveHttp(listener);
  });
  afterAll(() => target?.close());

  it("files an issue with the server's defaults and organization", async () => {
    const project = await fetch(`${target.baseUrl}/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Web' }),
    });
    const { id } = ((await project.json()) as { project: { id: number } }).project;
    const client = issueClient(target.baseUrl);
    expect(await reportCrash(id, client)).toBe('Crash on start: open, priority 3, in Web');
    const { records } = await client.index();
    expect(records.map((issue) => [issue.orgId, issue.status, issue.priority])).toEqual([[7, 'open', 3]]);
  });
});

describe('tsc of the browser project, without experimentalDecorators', () => {
  beforeAll(async () => {
    // The packages as a browser project installs them: their builds, rebuilt when stale (the
    // client does not depend on the core at run time, so both are named).
    const built = await run(process.execPath, ['scripts/build-if-stale.mjs', 'packages/core', 'packages/client'], root);
    expect(built.code, built.output).toBe(0);
    rmSync(copy, { recursive: true, force: true });
    mkdirSync(copy, { recursive: true });
    for (const folder of ['server', 'web']) cpSync(join(here, folder), join(copy, folder), { recursive: true });
  }, 240_000);
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('compiles, the server project referenced for its types', async () => {
    const web = JSON.parse(readFileSync(join(copy, 'web/tsconfig.json'), 'utf8'));
    expect(web.compilerOptions.experimentalDecorators).toBeUndefined();
    const server = JSON.parse(readFileSync(join(copy, 'server/tsconfig.json'), 'utf8'));
    expect(server.compilerOptions).toMatchObject({ composite: true, experimentalDecorators: true });
    const { code, output } = await tsc(['-b', 'web']);
    expect(output).toBe('');
    expect(code).toBe(0);
    // What the browser project read of the server: its types, without the decorators.
    const declaration = readFileSync(join(copy, 'server/types/issues.d.ts'), 'utf8');
    expect(declaration).toContain('orgId: ServerSet<number>;');
    expect(declaration).not.toContain('@Is');
  }, 120_000);

  it('fails on the decorators without the reference, which is why it is there', async () => {
    const web = JSON.parse(readFileSync(join(copy, 'web/tsconfig.json'), 'utf8'));
    delete web.references;
    writeFileSync(join(copy, 'web/tsconfig.unreferenced.json'), JSON.stringify(web));
    const { code, output } = await tsc(['-p', 'web/tsconfig.unreferenced.json']);
    expect(code).not.toBe(0);
    expect(output).toMatch(
      /server\/issues\.ts\(\d+,\d+\): error TS1240: Unable to resolve signature of property decorator/,
    );
    // experimentalDecorators in the browser project also compiles the server's file, decorators and all.
    const decorated = await tsc(['-p', 'web/tsconfig.unreferenced.json', '--experimentalDecorators']);
    expect(decorated.output).toBe('');
    expect(decorated.code).toBe(0);
  }, 120_000);
});
