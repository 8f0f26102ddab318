import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: '@resourcery/core',
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    // The type-level tests (`*.test-d.ts`) are checked by tsc, not run.
    // Errors elsewhere in the sources are the repository typecheck's business, not this project's.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: 'test/tsconfig.json',
      ignoreSourceErrors: true,
    },
  },
});
