// Completes package-lock.json with the optional platform packages (other OSes' and CPUs'
// native binaries of biome, esbuild, rollup...) that npm could not record because the
// registry this machine reaches serves only the host platform's. Without them `npm ci` refuses
// the lock ("Missing: @biomejs/cli-darwin-arm64@ from lock file"). Each entry is marked optional
// with its platform, so npm skips it wherever it does not apply.
// Run after any `npm install` that changes the lock: node scripts/complete-lockfile.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const file = resolve(root, 'package-lock.json');

function missingFromLock() {
  try {
    execFileSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--loglevel=error'], { cwd: root, stdio: 'pipe' });
    return [];
  } catch (error) {
    const output = `${error.stdout}${error.stderr}`;
    const names = [...output.matchAll(/Missing: (@?[^@\s]+)@\S* from lock file/g)].map((match) => match[1]);
    if (names.length === 0) throw new Error(`npm ci --dry-run failed for another reason:\n${output}`);
    return [...new Set(names)];
  }
}

const OSES = ['win32', 'darwin', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony', 'linux'];
const CPUS = ['x64', 'arm64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

const lock = JSON.parse(readFileSync(file, 'utf8'));
const missing = missingFromLock();
for (const name of missing) {
  const declared = Object.values(lock.packages).find((entry) => entry.optionalDependencies?.[name]);
  const version = declared?.optionalDependencies[name].replace(/^[\^~=]/, '');
  const os = OSES.find((candidate) => name.includes(candidate));
  const cpu = CPUS.find((candidate) => new RegExp(`[-_]${candidate}(?![0-9])`).test(name));
  lock.packages[`node_modules/${name}`] = {
    version,
    dev: true,
    optional: true,
    ...(os && { os: [os] }),
    ...(cpu && { cpu: [cpu] }),
    ...(/musl/.test(name) && { libc: ['musl'] }),
  };
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
const left = missingFromLock();
if (left.length) throw new Error(`still missing from the lock: ${left.join(', ')}`);
console.log(`complete-lockfile: added ${missing.length} optional platform entries; npm ci accepts the lock`);
