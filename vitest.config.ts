import { defineConfig } from 'vitest/config';

// Each package and example is its own Vitest project (Vitest 4 replaced vitest.workspace.ts
// with `test.projects`); e2e/ holds the process-level tests of the example's server.
export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*', 'e2e', 'docs'],
  },
});
