// The pages of docs/ and the README show their TypeScript as tested files: a code block marked
// `<!-- file: x.ts -->` must be that file exactly; one marked `<!-- part of: x.ts -->` is a
// fragment whose lines appear in that file in the same order (`// ...` marks what is left out),
// and the page shows that file whole too. The files are typechecked (tsconfig.json includes
// them) and run by a test that imports them. The README's quick start blocks are files of the
// quick start that scripts/check-packages.mjs writes, typechecks and runs from the packed packages.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const BLOCK = /(?:<!-- ([\w-]+(?: of)?)(?:: ([^ ]+))? -->\n)?```(\w*)\n([\s\S]*?)```/g;
/** README blocks that scripts/check-packages.mjs runs as files of the quick start. */
const QUICK_START = ['quick-start', 'quick-start-client'];

const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Every test file of the repository. */
function testFiles(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The files the tests run: every test file and what it imports, relatively, from file to file. */
function filesRunByTests(): Set<string> {
  const reached = new Set<string>();
  const pending = testFiles();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached.has(file) || !existsSync(file)) continue;
    reached.add(file);
    for (const [, path] of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
      pending.push(
        resolve(
          dirname(file),
          (path as string).replace(/\.m?js$/, (ext) => (ext === '.mjs' ? '.mjs' : '.ts')),
        ),
      );
    }
  }
  return new Set([...reached].map((path) => relative(root, path)));
}
const runByTests = filesRunByTests();
/**
 * Files the tests name: entry files they run as processes (`bundleExampleServer('…', 'server-fetch.ts')`),
 * configurations they compile with (`'web/tsconfig.json'`). A name stands for the files whose path ends with it.
 */
const namedByTests = new Set(
  [...runByTests].flatMap((path) =>
    [...readFileSync(join(root, path), 'utf8').matchAll(/'([\w./-]+\.(?:ts|json))'/g)].map((m) => m[1] as string),
  ),
);
const isNamedByTests = (path: string) => [...namedByTests].some((name) => path === name || path.endsWith(`/${name}`));

/** Whether the fragment's lines appear in `file` in the same order (indentation aside). */
function isPartOf(fragment: string, file: string): boolean {
  const lines = file.split('\n').map((line) => line.trim());
  let at = 0;
  for (const line of fragment.split('\n').map((text) => text.trim())) {
    if (line === '' || line === '// ...') continue;
    const found = lines.indexOf(line, at);
    if (found === -1) return false;
    at = found + 1;
  }
  return true;
}

describe.each(pages)('%s', (page) => {
  const text = readFileSync(join(root, page), 'utf8');
  const blocks = [...text.matchAll(BLOCK)].map(([, marker, path, language, code]) => ({
    marker,
    path,
    language,
    code: code ?? '',
  }));
  const shownWhole = new Set(blocks.filter((block) => block.marker === 'file').map((block) => block.path));

  it('shows each example file exactly as it is', () => {
    for (const block of blocks.filter((candidate) => candidate.marker === 'file')) {
      expect(block.code, block.path).toBe(readFileSync(join(root, block.path as string), 'utf8'));
    }
  });

  it('shows fragments that are parts of a file the page shows whole', () => {
    for (const block of blocks.filter((candidate) => candidate.path && candidate.marker !== 'file')) {
      expect(block.marker, block.path).toBe('part of');
      const file = readFileSync(join(root, block.path as string), 'utf8');
      expect(isPartOf(block.code, file), `${block.path}:\n${block.code}`).toBe(true);
      expect(shownWhole, `${page} shows ${block.path} whole too`).toContain(block.path);
    }
  });

  it('shows only files that a test runs', () => {
    const unrun = [...shownWhole].filter((path) => !runByTests.has(path as string) && !isNamedByTests(path as string));
    expect(unrun, 'files no test imports, directly or through other files').toEqual([]);
  });

  it('has no TypeScript that is not a tested file', () => {
    const loose = blocks.filter(
      (block) =>
        block.language === 'ts' &&
        !(block.marker === 'file' || block.marker === 'part of') &&
        !(page === 'README.md' && QUICK_START.includes(block.marker as string)),
    );
    expect(loose.map((block) => block.code.slice(0, 80))).toEqual([]);
  });
});
