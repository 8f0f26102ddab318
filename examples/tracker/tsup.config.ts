import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/server.ts', 'src/app.ts', 'src/resources.ts', 'src/models.ts', 'src/principal.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
});
