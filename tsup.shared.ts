import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative } from 'node:path';
import { defineConfig, type Options } from 'tsup';

/**
 * tsup splits CommonJS by building ESM chunks and rewriting their imports with sucrase; the lines
 * that pass adds (`"use strict"`, the `exports` preamble) map to the intermediate file, which the
 * merged source map names by its absolute path on the build machine, without content. Those
 * lines are the output file's own: name it relative to the map, as any other source.
 */
function relativeMapSources(outDir: string): void {
  for (const file of readdirSync(outDir).filter((name) => name.endsWith('.cjs.map'))) {
    const path = join(outDir, file);
    const map = JSON.parse(readFileSync(path, 'utf8')) as { sources: string[] };
    if (!map.sources.some(isAbsolute)) continue;
    map.sources = map.sources.map((source) =>
      isAbsolute(source) ? relative(outDir, source) || basename(source) : source,
    );
    writeFileSync(path, JSON.stringify(map));
  }
}

/**
 * The build every package shares: ESM and CJS with types and source maps, for Node 20;
 * `options` adds entries or overrides. The maps carry their sources (`sourcesContent`), since
 * the tarballs hold `dist/` only: a debugger shows the TypeScript without `src/` being published.
 * Entries share their modules in CommonJS as in ESM (`splitting`): with a copy per entry, a
 * resource defined through `index.cjs` would be "not a resource" to `adapter.cjs`, and an error
 * class of one would fail `instanceof` in the other.
 */
export function packageBuild(options: Options = {}) {
  const outDir = options.outDir ?? 'dist';
  return defineConfig({
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    splitting: true,
    target: 'node20',
    ...options,
    esbuildOptions(esbuild, context) {
      esbuild.sourcesContent = true;
      options.esbuildOptions?.(esbuild, context);
    },
    async onSuccess() {
      relativeMapSources(outDir);
    },
  });
}
