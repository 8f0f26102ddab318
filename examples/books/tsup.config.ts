import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/server.ts', 'src/server-fetch.ts', 'src/app.ts', 'src/book.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
