import { packageBuild } from '../../tsup.shared.js';

// Runs on any runtime with the Fetch API: no Node built-ins, a target all of them understand.
export default packageBuild({ platform: 'neutral', target: 'es2022' });
