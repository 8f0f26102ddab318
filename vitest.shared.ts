import { fileURLToPath } from 'node:url';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Tests resolve the workspace packages to their sources, so a test run never depends on a
 * stale build. What users install (the built packages) is checked by scripts/check-packages.mjs.
 */
export const workspaceAliases = {
  '@resourcery/core/store': here('./packages/core/src/store.ts'),
  '@resourcery/core/adapter': here('./packages/core/src/adapter.ts'),
  '@resourcery/testing/suites': here('./packages/testing/src/suites.ts'),
  '@resourcery/testing': here('./packages/testing/src/index.ts'),
  '@resourcery/core': here('./packages/core/src/index.ts'),
  '@resourcery/express': here('./packages/express/src/index.ts'),
  '@resourcery/fetch': here('./packages/fetch/src/index.ts'),
  '@resourcery/client': here('./packages/client/src/index.ts'),
  '@resourcery/node': here('./packages/node/src/index.ts'),
  '@resourcery/sql': here('./packages/sql/src/index.ts'),
};
