import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import openapiTS, { astToString } from 'openapi-typescript';
import generateOrval from 'orval';

// What generated-clients.test.ts does to the tracker's served document, as a team that only has
// the document would: lint it with Redocly CLI (the linter examples/books/test/openapi-lint.test.ts
// runs on the library's documents), generate openapi-typescript's types and Orval's fetch client,
// and typecheck the calls written against them.

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const sources = fileURLToPath(new URL('../generated-clients/', import.meta.url));
const redocly = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = any;

/** Runs `redocly lint` with the strict ruleset (every rule of `recommended`, warnings as errors); answers each problem. */
export async function lintDocument(folder: string, document: unknown): Promise<string[]> {
  const file = join(folder, 'lint.json');
  writeFileSync(file, JSON.stringify(document, null, 2));
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const args = [redocly, 'lint', file, '--extends=recommended-strict', '--format=json'];
  const output = await new Promise<string>((resolve, reject) => {
    // Exits 1 when it finds errors; the report on stdout says which.
    execFile(process.execPath, args, { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (stdout.trim().startsWith('{')) resolve(stdout);
      else reject(error ?? new Error(`redocly printed no report: ${stderr}`));
    });
  });
  const report = JSON.parse(output) as { problems: Json[] };
  return report.problems.map(
    (problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
  );
}

/**
 * Generates `schema.ts` (openapi-typescript) and `orval.ts` (Orval's fetch client, its URLs
 * starting with `trackerBaseUrl()` of base-url.ts) in `folder` from `document`, copies the calls
 * and the type checks next to them, and typechecks them all with tsc: answers tsc's output, empty
 * when they typecheck.
 */
export async function generateClients(folder: string, document: unknown): Promise<string> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'openapi.json'), JSON.stringify(document));
  // `defaultNonNullable` (on by default) makes a property with a `default` required, even in a
  // component only request bodies use (openapi-ts/openapi-typescript#1741, #2012): `status` and
  // `priority` of IssueCreateInput would have to be sent. Off, as docs/openapi.md advises.
  const types = await openapiTS(document as Json, { defaultNonNullable: false });
  writeFileSync(join(folder, 'schema.ts'), astToString(types));
  await generateOrval(
    {
      input: { target: join(folder, 'openapi.json') },
      output: {
        target: join(folder, 'orval.ts'),
        client: 'fetch',
        mode: 'single',
        baseUrl: { runtime: 'trackerBaseUrl()', imports: [{ name: 'trackerBaseUrl', importPath: './base-url.js' }] },
      },
    },
    folder,
  );
  for (const file of ['calls.ts', 'answers.ts', 'base-url.ts', 'types.ts']) {
    copyFileSync(join(sources, file), join(folder, file));
  }
  const compilerOptions = {
    target: 'ES2022',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  };
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['calls.ts', 'types.ts'] }));
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
  const typecheck = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', folder], { encoding: 'utf8' });
  return typecheck.status === 0 ? '' : `${typecheck.stdout}${typecheck.stderr}`;
}

/**
 * A check of answers against the document: `check('GET /issues/stats', 200, body)` answers
 * Ajv's errors when `body` does not fit the schema the document gives that operation's `200`
 * (empty when it fits, or when that response has no body).
 */
export function responseChecker(document: Json): (operation: string, status: number, body: unknown) => string {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ components: document.components }, 'doc');
  const compiled = new Map<unknown, ReturnType<typeof ajv.compile>>();
  return (operation, status, body) => {
    const [method, path] = operation.split(' ') as [string, string];
    const responses = document.paths[path]?.[method.toLowerCase()]?.responses;
    if (!responses) return `the document has no operation ${operation}`;
    const response = responses[String(status)] ?? responses.default;
    if (!response) return `${operation} documents no ${status}`;
    const content = response.$ref
      ? document.components.responses[response.$ref.split('/').pop()].content
      : response.content;
    // No body: openapi-fetch answers `{}` for it, Orval `null` or `{}`.
    if (!content) return body == null || JSON.stringify(body) === '{}' ? '' : `${operation} ${status} has a body`;
    const schema = (Object.values(content)[0] as Json).schema;
    const validate =
      compiled.get(schema) ??
      ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
    compiled.set(schema, validate);
    return validate(body) ? '' : ajv.errorsText(validate.errors);
  };
}
