import { defineConfig } from 'vitest/config';

// Each package and example is its own Vitest project (Vitest 4 replaced vitest.workspace.ts
// with `test.projects`).
export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*'],
  },
});
