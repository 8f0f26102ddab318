// Checks the packages as users get them, by the route README.md documents: its pack commands
// (`npm run pack`: every package into packs/, each built by its `prepack`), then each tarball
// (README, LICENSE, types and both module formats for every export, source maps that carry their
// sources, one copy of each module per format); its install commands in an empty folder next to
// the repository, with no install script warned about but those the root package.json declares
// in `allowScripts`, and nothing of swagger-ui-dist or @scarf/scarf; its quick start verbatim with
// tsx (server and client), typechecked with tsc; the packages from plain JavaScript through both
// `import` and `require`; a CommonJS Express app whose resource, adapter and stores come through
// different entries; @resourcery/testing's helpers in a project without Vitest; then every example
// of docs/ (the files of docs/examples/ and their tests) against the installed tarballs.
//
//   node scripts/check-packages.mjs        (CI runs it after `npm run build`)
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tarballName } from './pack.mjs';
import { checkCommonJsApp } from './packages/commonjs-app.mjs';
import { checkDocsExamples } from './packages/docs-examples.mjs';
import { checkPlainJavaScript } from './packages/plain-javascript.mjs';
import { checkQuickStart, packAsReadmeSays } from './packages/quick-start.mjs';
import { readJson, root } from './packages/support.mjs';
import { checkTarball } from './packages/tarballs.mjs';
import { checkTestingWithoutVitest } from './packages/testing-without-vitest.mjs';

const started = Date.now();
const work = mkdtempSync(join(tmpdir(), 'resourcery-packages-'));
try {
  packAsReadmeSays();
  /** Package name → its tarball in packs/. */
  const tarballs = new Map();
  for (const dir of readdirSync(join(root, 'packages'))) {
    const { name } = readJson(join(root, 'packages', dir, 'package.json'));
    const tarball = join(root, 'packs', tarballName(name));
    const { files } = checkTarball(tarball, work);
    console.log(`${name}: ${files.length} files`);
    tarballs.set(name, tarball);
  }
  const app = await checkQuickStart(work);
  checkPlainJavaScript(app);
  await checkCommonJsApp(work, tarballs);
  checkTestingWithoutVitest(work, tarballs);
  await checkDocsExamples(work, [...tarballs.values()]);
  console.log(`check-packages: every check passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
