import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: '@resourcery/fetch',
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
