import { packageBuild } from '../../tsup.shared.js';

// Runs in browsers as well as in Node 20: no Node built-ins, a target both understand.
export default packageBuild({ platform: 'neutral', target: 'es2022' });
