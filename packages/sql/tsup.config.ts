import { packageBuild } from '../../tsup.shared.js';

// The drivers are optional peers, loaded on demand: only the one a URL names must be installed.
// `cli` is the `resourcery-sql` command (migrations); it loads TypeScript through the project's
// tsx, when there is one.
export default packageBuild({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  external: ['better-sqlite3', 'pg', 'mysql2', 'tsx'],
});
