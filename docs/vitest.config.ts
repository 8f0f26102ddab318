import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../vitest.shared.js';

// The examples of docs/ are files: this project runs their tests and checks that every page
// shows them exactly as they are. Those on a database server (several instances of live events)
// find it through the SQL package's global setup, as its own tests do.
export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: 'docs',
    include: ['**/*.test.ts'],
    globalSetup: ['../packages/sql/test/helpers/global-setup.ts'],
    testTimeout: 20_000,
  },
});
