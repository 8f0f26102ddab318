import { packageBuild } from '../../tsup.shared.js';

export default packageBuild({ external: ['vitest'] });
