import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // The drivers are optional peers, loaded on demand: only the one a URL names must be installed.
  external: ['better-sqlite3', 'pg', 'mysql2'],
});
