import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: '@resourcery/example-books',
    include: ['test/**/*.test.ts'],
    // The SQL package's global setup pings the database servers once per run (start-up.test.ts
    // runs the server on PostgreSQL when it answers).
    globalSetup: ['../../packages/sql/test/helpers/global-setup.ts'],
    testTimeout: 20_000,
  },
});
