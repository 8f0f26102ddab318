import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.js';

// The library example over HTTP on the memory store, SQLite, PostgreSQL and MariaDB. The SQL
// package's global setup pings the database servers once per run: an unreachable one is skipped
// with a line, or fails under CI=true.
export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: '@resourcery/example-library',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../../packages/sql/test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
