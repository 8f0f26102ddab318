import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  // Runs in browsers as well as in Node 20: no Node built-ins, a target both understand.
  platform: 'neutral',
  target: 'es2022',
});
