import { packageBuild } from '../../tsup.shared.js';

// `suites` registers tests with Vitest, an optional peer: `index` (the helpers) never loads it.
export default packageBuild({ entry: { index: 'src/index.ts', suites: 'src/suites.ts' }, external: ['vitest'] });
