import { packageBuild } from '../../tsup.shared.js';

export default packageBuild({
  entry: { index: 'src/index.ts', store: 'src/store.ts', adapter: 'src/adapter.ts' },
  // The CJS build needs `import.meta.url` (to find swagger-ui-dist for the docs page).
  shims: true,
});
