import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../vitest.shared.js';

// The examples of docs/ are files: this project runs their tests and checks that every page
// shows them exactly as they are.
export default defineProject({
  resolve: { alias: workspaceAliases },
  test: { name: 'docs', include: ['**/*.test.ts'], testTimeout: 20_000 },
});
