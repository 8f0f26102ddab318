import { defineProject } from 'vitest/config';
import { workspaceAliases } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: '@resourcery/sql',
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
