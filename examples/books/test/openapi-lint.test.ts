import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defineResource, memoryStore, openApiDocument } from '@resourcery/core';
import { Book, serveHttp } from '@resourcery/testing';
import { IsIn, IsObject, IsOptional, IsString } from 'class-validator';
import { afterAll, describe, expect, it } from 'vitest';
import { notes } from '../../../docs/examples/notes-hooks.js';
import { bearerOpenApi, books as ownedBooks } from '../../../docs/examples/owned-books.js';
import { accessApi, Issue } from '../../../test-support/access-resources.js';
import { library } from '../../../test-support/library-resources.js';
import { createApp } from '../src/app.js';

// The documents the library serves pass Redocly CLI's lint with its strict ruleset (every rule
// of `recommended`, warnings included, as errors): what API tooling (code generators, mock
// servers, contract tests) reads must be clean, not only valid.

const cli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
const folder = mkdtempSync(join(tmpdir(), 'resourcery-lint-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

/** Runs `redocly lint` on a document; answers every problem it reports. */
async function lint(name: string, document: unknown): Promise<string[]> {
  const file = join(folder, `${name}.json`);
  writeFileSync(file, JSON.stringify(document, null, 2));
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const args = [cli, 'lint', file, '--extends=recommended-strict', '--format=json'];
  const output = await new Promise<string>((resolve, reject) => {
    // Exits 1 when it finds errors; the report on stdout says which.
    execFile(process.execPath, args, { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (stdout.trim().startsWith('{')) resolve(stdout);
      else reject(error ?? new Error(`redocly printed no report: ${stderr}`));
    });
  });
  const report = JSON.parse(output) as { totals: { errors: number; warnings: number }; problems: LintProblem[] };
  return report.problems.map(
    (problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
  );
}

describe('redocly lint (recommended-strict)', () => {
  it('finds nothing in the document the example serves', async () => {
    const target = await serveHttp(createApp(memoryStore()));
    try {
      const document = await (await fetch(`${target.baseUrl}/openapi.json`)).json();
      expect(await lint('books-example', document)).toEqual([]);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('finds nothing in a document of customized resources with their security declared', async () => {
    const document = openApiDocument([ownedBooks, notes], {
      title: 'Customized',
      version: '2.0.0',
      basePath: '/api',
      license: { name: 'MIT', identifier: 'MIT' },
      ...bearerOpenApi, // as docs/customization.md declares the bearer token its hook asks for
    });
    expect(document.security).toEqual([{ bearer: [] }]);
    expect(await lint('customized', document)).toEqual([]);
  }, 60_000);

  it('finds nothing in the document of related resources, richer types and the query language', async () => {
    class Event {
      @IsString() @IsIn(['draft', 'final']) state!: string;
      @IsOptional() @IsObject() data?: Record<string, unknown> | null;
      @IsOptional() on?: string | null;
    }
    const events = defineResource({
      name: 'event',
      model: Event,
      id: 'uuid',
      types: { on: 'date' },
      defaults: { state: 'draft' },
      timestamps: { updatedAt: false },
      // Cursor pagination (`after`) and declared operators, besides the library's defaults.
      pagination: 'cursor',
      fields: { operators: { state: ['prefix'], on: ['gte', 'lt', 'null'] } },
    });
    const document = openApiDocument([...library, events], {
      title: 'Library',
      version: '1.0.0',
      basePath: '/api',
      license: { name: 'MIT', identifier: 'MIT' },
    });
    type Operation = { get: { parameters: { name: string }[] } };
    const parameters = (path: string) =>
      (document.paths[path] as Operation).get.parameters.map((parameter) => parameter.name);
    expect(parameters('/books')).toEqual(
      expect.arrayContaining(['filter[year][gte]', 'filter[title][prefix]', 'filter[author.country][null]', 'fields']),
    );
    expect(parameters('/events')).toEqual(expect.arrayContaining(['filter[on][gte]', 'after', 'per_page', 'count']));
    expect(parameters('/events')).not.toContain('page');
    expect(await lint('library', document)).toEqual([]);
  }, 60_000);

  it('finds nothing in the document of an API with authenticate, tenancy, field rules and an archive', async () => {
    const document = openApiDocument(accessApi.resources, {
      ...accessApi,
      title: 'Tracker',
      version: '1.0.0',
      basePath: '/api',
      license: { name: 'MIT', identifier: 'MIT' },
    });
    expect(document.components.securitySchemes).toHaveProperty('bearer');
    expect(await lint('access', document)).toEqual([]);
  }, 60_000);

  it('finds nothing in the document of live events (text/event-stream with x-events, 406, 503)', async () => {
    const issues = defineResource({
      name: 'issue',
      model: Issue,
      live: true,
      archive: 'archivedAt',
      search: ['title'],
      access: { destroy: ['admin'] },
    });
    const document = openApiDocument([issues], {
      ...accessApi,
      title: 'Live',
      version: '1.0.0',
      basePath: '/api',
      license: { name: 'MIT', identifier: 'MIT' },
    });
    expect(Object.keys(document.paths)).toContain('/issues/events');
    expect(await lint('live', document)).toEqual([]);
  }, 60_000);

  it('finds nothing in the document of a read-only resource', async () => {
    const log = defineResource({ name: 'log', model: Book, actions: { create: false, update: false, destroy: false } });
    const document = openApiDocument([log], { license: { name: 'MIT', identifier: 'MIT' } });
    expect(await lint('read-only', document)).toEqual([]);
  }, 60_000);
});
