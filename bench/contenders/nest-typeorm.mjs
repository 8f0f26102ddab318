// NestJS 11 + @dataui/crud + @nestjs/typeorm + TypeORM 0.3 over PostgreSQL or SQLite, as their
// guides set them up (nest/books-app.ts: an entity with class-validator rules, a
// TypeOrmCrudService, a @Crud() controller). The TypeScript is compiled here with TypeScript's
// own emitter, since Nest's dependency injection reads the decorator metadata that esbuild and tsx
// leave out. Its API has another shape (`?filter=author||$eq||A&sort=name,DESC&limit=20&page=1`,
// pages as `{ data, count, total, page, pageCount }`): `dialect` translates.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { POOL_SIZE, seededDatabase } from '../lib/databases.mjs';
import { serve } from '../lib/serve.mjs';
import { contractAnswer, translateList } from './by-hand/dialect.mjs';

const SOURCE = fileURLToPath(new URL('nest/books-app.ts', import.meta.url));
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/resourcery-bench/', import.meta.url));

/** nest/books-app.ts compiled (decorators with their metadata) and imported. */
async function importBooksApp() {
  const { default: ts } = await import('typescript');
  const { outputText } = ts.transpileModule(readFileSync(SOURCE, 'utf8'), {
    fileName: SOURCE,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields: false,
    },
  });
  mkdirSync(CACHE, { recursive: true });
  // Beside node_modules, so that the packages it imports resolve; removed once loaded.
  const file = join(CACHE, `nest-books-app-${process.pid}.mjs`);
  writeFileSync(file, outputText);
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(file, { force: true });
  }
}

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'nest-typeorm',
  description: 'NestJS 11 + @dataui/crud + TypeORM 0.3 (entity with class-validator rules) on Express',
  dbs: ['postgres', 'sqlite'],
  async start({ books, db }) {
    const database = await seededDatabase('nest-typeorm', db, books);
    const { createBooksApp } = await importBooksApp();
    const app = await createBooksApp({ kind: database.kind, location: database.location, poolSize: POOL_SIZE });
    return serve(app.getHttpAdapter().getInstance(), async () => {
      await app.close();
      database.remove();
    });
  },
  dialect: {
    /** `?page=3&per_page=25&filter[author]=A&sort=-name` → `?filter=author||$eq||A&sort=name,DESC&sort=id,ASC&limit=25&page=3`. */
    translate(request) {
      return translateList(request, ({ where, order, page, perPage }) => {
        const params = [];
        for (const { field, values } of where) {
          const condition = values.length === 1 ? `${field}||$eq||${values[0]}` : `${field}||$in||${values.join(',')}`;
          params.push(`filter=${encodeURIComponent(condition)}`);
        }
        for (const { field, descending } of order) params.push(`sort=${field},${descending ? 'DESC' : 'ASC'}`);
        params.push(`limit=${perPage}`, `page=${page}`);
        return params.join('&');
      });
    },
    normalize(request, got) {
      return contractAnswer(request, got, (body) => ({ records: body.data, total: body.total }));
    },
  },
};
