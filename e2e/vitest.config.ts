import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../vitest.shared.js';

// Process-level tests of the books example: each bundles its server (scripts/bundle-example-server.mjs)
// and drives the running process over HTTP, on SQLite and on the database servers the SQL package's
// tests use. The same global setup pings those servers once per run: an unreachable one is skipped
// with a line, or fails under CI=true.
export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: 'e2e',
    include: ['**/*.test.ts'],
    globalSetup: ['../packages/sql/test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
