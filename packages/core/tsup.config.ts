import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['vitest'],
  // The CJS build needs `import.meta.url` (to find swagger-ui-dist for the docs page).
  shims: true,
});
