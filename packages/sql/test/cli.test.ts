// `resourcery-sql` as a user runs it: the package's bin (dist/cli.js) in a child process, in a
// project folder of its own with a TypeScript config, TypeScript models and a TypeScript
// migration. The documented teammate scenario: the frozen create_tables, then add_isbn, run in
// order on a fresh database, and the app starts on the result.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { sqlStore } from '@resourcery/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVERS, serverAvailable } from './helpers/databases.js';

const root = resolve(import.meta.dirname, '../../..');
const exec = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), 'resourcery-cli-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// The bin runs the built package, as installed: build it (and core) when a source is newer.
beforeAll(async () => {
  await exec(process.execPath, [join(root, 'scripts/build-if-stale.mjs'), 'packages/sql'], { cwd: root });
}, 180_000);

/** Runs a command in a project folder; answers its output, or its output and exit code when it fails. */
async function run(cwd: string, command: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd, env: { ...process.env, ...env } });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

/** `npx resourcery-sql …`: the bin of the installed package. */
const cli = (cwd: string, env: Record<string, string>, ...args: string[]) =>
  run(cwd, process.execPath, [join(cwd, 'node_modules/@resourcery/sql/dist/cli.js'), ...args], env);

/** A project folder: package.json, tsconfig.json (decorators), and the repository's node_modules. */
function project(name: string, files: Record<string, string>): string {
  const dir = join(folder, name);
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const base = {
    'package.json': JSON.stringify({ name, private: true, type: 'module' }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', experimentalDecorators: true, strict: true },
    }),
  };
  for (const [file, text] of Object.entries({ ...base, ...files })) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

const MODELS = (isbn: boolean) => `import { IsInt, IsOptional, IsString, Length } from 'class-validator';
export class Author {
  @IsString() @Length(1, 200) name!: string;
}
export class Book {
  @IsString() @Length(1, 500) title!: string;
  @IsInt() authorId!: number;
${isbn ? '  @IsOptional() @IsString() @Length(10, 17) isbn?: string | null;\n' : ''}}
`;

const RESOURCES = `import { belongsTo, defineResource } from '@resourcery/core';
import { Author, Book } from './models.js';
export const authors = defineResource({ name: 'author', model: Author });
export const books = defineResource({
  name: 'book',
  model: Book,
  relations: { author: belongsTo(Author, { foreignKey: 'authorId' }) },
});
export const resources = [authors, books];
`;

const CONFIG = `import { resourceSchemas } from '@resourcery/core/adapter';
import { resources } from './src/resources.js';

export default {
  url: process.env.DATABASE_URL,
  tablePrefix: process.env.TABLE_PREFIX ?? '',
  schemas: resourceSchemas(resources),
};
`;

/**
 * Written by hand after isbn was added to Book: its column and index as the store would make them
 * (`resourcery-sql sql <dialect>` prints them), for each database.
 */
const ADD_ISBN = `import { sqlMigration } from '@resourcery/sql';

const books: string = \`\${process.env.TABLE_PREFIX ?? ''}books\`;

export default sqlMigration({
  sqlite: [
    \`ALTER TABLE "\${books}" ADD COLUMN "isbn" TEXT\`,
    \`CREATE INDEX "\${books}_isbn_idx" ON "\${books}" ("isbn", "id")\`,
  ],
  postgres: [
    \`ALTER TABLE "\${books}" ADD COLUMN "isbn" VARCHAR(17) COLLATE "C"\`,
    \`CREATE INDEX "\${books}_isbn_idx" ON "\${books}" ("isbn" NULLS FIRST, "id")\`,
  ],
  mariadb: [
    \`ALTER TABLE \\\`\${books}\\\` ADD COLUMN isbn VARCHAR(17) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin\`,
    \`CREATE INDEX \\\`\${books}_isbn_idx\\\` ON \\\`\${books}\\\` (isbn, id)\`,
  ],
});
`;

/** The app starting on the migrated tables (createTables: false): what it answers to three creates. */
const START = `import { createApi } from '@resourcery/core';
import { sqlStore } from '@resourcery/sql';
import { resources } from './src/resources.js';

const store = sqlStore(process.env.DATABASE_URL!, { tablePrefix: process.env.TABLE_PREFIX ?? '', createTables: false });
const api = createApi({ resources, store });
await api.ready();
const post = async (path: string, body: unknown) => {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const response = await api.handle({
    method: 'POST',
    path,
    basePath: '/api',
    rawQuery: '',
    headers: { 'content-type': 'application/json', 'content-length': String(bytes.byteLength) },
    body: (async function* () {
      yield bytes;
    })(),
  });
  return response.status;
};
const author = await post('/authors', { name: 'Le Guin' });
const book = await post('/books', { title: 'The Dispossessed', authorId: 1, isbn: '9780060512750' });
const orphan = await post('/books', { title: 'Nobody', authorId: 999 });
console.log(\`author \${author} book \${book} orphan \${orphan}\`);
await store.close();
`;

interface Target {
  readonly label: string;
  /** The developer's database, then the teammate's. */
  readonly developer: Record<string, string>;
  readonly teammate: Record<string, string>;
  /** Empties the server's database before the teammate's turn (a new database, with the same table names). */
  readonly cleanup: () => Promise<void>;
}

const targets: Target[] = [
  {
    label: 'SQLite',
    developer: { DATABASE_URL: `sqlite:${join(folder, 'developer.sqlite')}` },
    teammate: { DATABASE_URL: `sqlite:${join(folder, 'teammate.sqlite')}` },
    cleanup: async () => {},
  },
];
for (const name of ['postgres', 'mariadb'] as const) {
  if (!serverAvailable(name)) continue;
  const url = SERVERS[name].url;
  const env = { DATABASE_URL: url, TABLE_PREFIX: `c${Math.random().toString(36).slice(2, 8)}_` };
  targets.push({
    label: SERVERS[name].label,
    developer: env,
    teammate: env,
    cleanup: async () => {
      const store = sqlStore(url);
      try {
        for (const table of ['books', 'authors', 'kysely_migration', 'kysely_migration_lock']) {
          await store.db.schema.dropTable(`${env.TABLE_PREFIX}${table}`).ifExists().execute();
        }
      } finally {
        await store.close();
      }
    },
  });
}

describe('resourcery-sql, run as a user runs it', () => {
  it('status before the first generate lists nothing and says how to start (a .mjs config)', async () => {
    const dir = project('fresh', {
      'resourcery.config.mjs': `export default { url: 'sqlite:${join(folder, 'fresh.sqlite')}', schemas: [], migrationFolder: 'migrations' };\n`,
    });
    const status = await cli(dir, {}, 'status');
    expect(status).toEqual({
      code: 0,
      out: `No migrations yet: \`resourcery-sql generate create_tables\` writes the first one to ${join(dir, 'migrations')}\n`,
    });
    const none = project('none', {});
    expect(await cli(none, {}, 'status')).toEqual({
      code: 1,
      out: `resourcery-sql: No resourcery.config.mjs, resourcery.config.js, resourcery.config.ts, resourcery.config.mts in ${none}: write one (see docs/stores.md#migrations) or pass --config <file>\n`,
    });
  });

  for (const target of targets) {
    it(`${target.label}: a TypeScript config and migration; a teammate's fresh database runs both migrations in order`, async () => {
      const dir = project(`team-${target.label}`, {
        'resourcery.config.ts': CONFIG,
        'src/models.ts': MODELS(false),
        'src/resources.ts': RESOURCES,
        'start.ts': START,
      });
      try {
        // The developer freezes the first tables and migrates.
        const generated = await cli(dir, target.developer, 'generate', 'create_tables');
        expect(generated.code, generated.out).toBe(0);
        const [frozen] = readdirSync(join(dir, 'migrations'));
        const created = (frozen as string).replace(/\.mjs$/, '');
        expect(created).toMatch(/^\d{14}_create_tables$/);
        expect(await cli(dir, target.developer, 'migrate')).toMatchObject({
          code: 0,
          out: expect.stringContaining(`up    ${created}`),
        });

        // Later: isbn joins the model, and a migration of the developer's adds its column.
        writeFileSync(join(dir, 'src/models.ts'), MODELS(true));
        const added = `${String(Number(created.slice(0, 14)) + 1)}_add_isbn`;
        writeFileSync(join(dir, 'migrations', `${added}.ts`), ADD_ISBN);
        expect(await cli(dir, target.developer, 'migrate')).toMatchObject({
          code: 0,
          out: expect.stringContaining(`up    ${added}`),
        });

        // A teammate pulls both files and migrates a fresh database: both run, in order.
        const developed = await run(dir, join(dir, 'node_modules/.bin/tsx'), ['start.ts'], target.developer);
        expect(developed.out).toContain('author 200 book 200 orphan 422');
        await target.cleanup();
        const pending = await cli(dir, target.teammate, 'status');
        expect(pending.out).toMatch(new RegExp(`pending +${created}\\npending +${added}\\n$`));
        const migrated = await cli(dir, target.teammate, 'migrate');
        expect(migrated.code, migrated.out).toBe(0);
        expect(migrated.out).toMatch(new RegExp(`^up +${created}\\nup +${added}\\n`));
        expect((await cli(dir, target.teammate, 'status')).out).toMatch(
          new RegExp(`^\\d{4}-\\S+ +${created}\\n\\d{4}-\\S+ +${added}\\n$`),
        );

        // The app starts on the teammate's tables: they fit the declarations, foreign key included.
        const started = await run(dir, join(dir, 'node_modules/.bin/tsx'), ['start.ts'], target.teammate);
        expect(started.out).toContain('author 200 book 200 orphan 422');
      } finally {
        await target.cleanup();
      }
    }, 180_000); // eight processes, each starting Node (and tsx), on a machine shared with other jobs
  }
});
