import { packageBuild } from '../../tsup.shared.js';

// The drivers are optional peers, loaded on demand: only the one a URL names must be installed.
export default packageBuild({ external: ['better-sqlite3', 'pg', 'mysql2'] });
