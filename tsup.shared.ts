import { defineConfig, type Options } from 'tsup';

/**
 * The build every package shares: ESM and CJS with types and source maps, for Node 20;
 * `options` adds entries or overrides. The maps carry their sources (`sourcesContent`), since
 * the tarballs hold `dist/` only: a debugger shows the TypeScript without `src/` being published.
 */
export function packageBuild(options: Options = {}) {
  return defineConfig({
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    ...options,
    esbuildOptions(esbuild, context) {
      esbuild.sourcesContent = true;
      options.esbuildOptions?.(esbuild, context);
    },
  });
}
