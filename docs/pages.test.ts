// The pages of docs/ show their examples exactly as the files of docs/examples/ are: a code
// block marked `<!-- file: docs/examples/x.ts -->` must be that file, and every TypeScript
// block of the pages about customizing and the architecture must be marked so.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const ALL_BLOCKS_ARE_FILES = ['customization.md', 'architecture.md'];
const BLOCK = /(?:<!-- file: ([^ ]+) -->\n)?```(\w*)\n([\s\S]*?)```/g;

const pages = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));

describe.each(pages)('docs/%s', (page) => {
  const text = readFileSync(join(root, 'docs', page), 'utf8');
  const blocks = [...text.matchAll(BLOCK)].map(([, file, language, code]) => ({ file, language, code }));

  it('shows each example file exactly as it is', () => {
    for (const block of blocks.filter((candidate) => candidate.file)) {
      expect(block.code ?? '', block.file).toBe(readFileSync(join(root, block.file as string), 'utf8'));
    }
  });

  // Only the pages that must hold tested files alone get this case (no skipped cases elsewhere).
  if (ALL_BLOCKS_ARE_FILES.includes(page))
    it('has no TypeScript that is not a tested file', () => {
      const loose = blocks.filter((block) => block.language === 'ts' && !block.file);
      expect(loose.map((block) => (block.code ?? '').slice(0, 80))).toEqual([]);
    });
});
