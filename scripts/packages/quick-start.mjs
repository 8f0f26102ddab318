// The README's quick start, by the route the README documents and with its own text: the
// commands of its `quick-start-pack` block run in the repository (they write packs/), those of
// its `quick-start-install` block in an empty folder next to a folder named `resourcery` that is
// the repository, as a clone would be; then its server and client run verbatim with tsx.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail, freePort, root, run, runShell, startServer } from './support.mjs';

const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The code block of README.md marked `<!-- name -->`. */
export function readmeBlock(name) {
  const match = new RegExp(`<!-- ${name} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!match) fail(`README.md has no code block marked <!-- ${name} -->`);
  return match[1];
}

/** Runs the README's pack commands in the repository, as a user would in their clone. */
export function packAsReadmeSays() {
  const printed = runShell(readmeBlock('quick-start-pack'), root, "the README's pack commands");
  process.stdout.write(printed);
}

/** Installs the quick start in `work/quick-start` as the README says, and runs it. */
export async function checkQuickStart(work) {
  // The README's commands name the clone `../resourcery`.
  symlinkSync(root, join(work, 'resourcery'), 'dir');
  const app = join(work, 'quick-start');
  mkdirSync(app);
  runShell(readmeBlock('quick-start-install'), app, "the README's install commands");
  writeFileSync(join(app, 'tsconfig.json'), readmeBlock('quick-start-tsconfig'));
  // The docs page's Swagger UI is an optional peer: neither it nor its telemetry comes with the core.
  for (const unwanted of ['swagger-ui-dist', '@scarf/scarf']) {
    if (existsSync(join(app, 'node_modules', unwanted))) fail(`the quick start installed ${unwanted}`);
  }
  console.log(
    'quick start: installs as the README says, without undeclared install scripts, swagger-ui-dist or @scarf/scarf',
  );

  const port = await freePort();
  writeFileSync(join(app, 'server.ts'), readmeBlock('quick-start').replaceAll('3000', String(port)));
  writeFileSync(join(app, 'client.ts'), readmeBlock('quick-start-client').replaceAll('3000', String(port)));
  run('npx', ['tsc', '--noEmit', '-p', '.'], app);
  console.log('quick start: server.ts and client.ts typecheck');

  const server = await startServer(join(app, 'node_modules/.bin/tsx'), ['server.ts'], app, String(port));
  try {
    const url = `http://127.0.0.1:${port}/api/books`;
    const created = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Dune', author: 'Frank Herbert' }),
    });
    const body = await created.json();
    if (created.status !== 200 || body.book?.id !== 1)
      fail(`quick start create answered ${created.status} ${JSON.stringify(body)}`);
    const invalid = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    if (invalid.status !== 422) fail(`quick start answered ${invalid.status} to an empty book`);
    const listed = await (await fetch(`${url}?filter[author]=Frank%20Herbert`)).json();
    if (listed.books?.length !== 1) fail(`quick start index answered ${JSON.stringify(listed)}`);
    const docs = await fetch(`http://127.0.0.1:${port}/api/docs`);
    if (docs.status !== 200 || !(await docs.text()).includes('npm install swagger-ui-dist'))
      fail(`without swagger-ui-dist, /api/docs answered ${docs.status} instead of the page saying how to install it`);
    console.log('quick start: runs and serves the contract; /api/docs says how to install swagger-ui-dist');
    const printed = run(join(app, 'node_modules/.bin/tsx'), ['client.ts'], app).trim();
    if (!/^2 1 The Left Hand of Darkness$/.test(printed)) fail(`the quick start's client printed "${printed}"`);
    console.log(`quick start: the client runs (${printed})`);
  } finally {
    server.stop();
  }
  return app;
}
