import { defineConfig, type Options } from 'tsup';

/**
 * The build every package shares: ESM and CJS with types and source maps, for Node 20;
 * `options` adds entries or overrides.
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
  });
}
