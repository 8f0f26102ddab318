// What the parts of scripts/check-packages.mjs share: the repository's root, running commands,
// failing with one line, `npm install` that watches for undeclared install scripts, and starting
// a server process on a free port.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '../..');
export const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
export const rootManifest = readJson(join(root, 'package.json'));

/** Packages whose install scripts the project declares (root `allowScripts`): the only ones npm may warn about. */
const declaredScripts = new Set(
  Object.entries(rootManifest.allowScripts ?? {})
    .filter(([, allowed]) => allowed === true)
    .map(([name]) => name),
);

/** No audit nor funding messages: they ask the registry for nothing the checks need. */
const quietNpm = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' };

export const run = (command, args, cwd, env = quietNpm) =>
  execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

export function fail(message) {
  console.error(`check-packages: ${message}`);
  process.exit(1);
}

/** Fails on npm's warning about an install script that the project does not declare. */
function checkInstallScripts(stderr, what) {
  const warned = [...stderr.matchAll(/^npm warn install-scripts\s+((?:@[^@\s/]+\/)?[^@\s]+)@\S+ \(/gm)];
  const undeclared = warned.map((match) => match[1]).filter((name) => !declaredScripts.has(name));
  if (undeclared.length) fail(`${what} runs undeclared install scripts: ${undeclared.join(', ')}`);
}

/** `npm install` in `cwd`; fails on a warning about an install script the project does not declare. */
export function npmInstall(args, cwd) {
  const result = spawnSync('npm', ['install', ...args], { cwd, env: quietNpm, encoding: 'utf8' });
  if (result.status !== 0) fail(`npm install ${args.join(' ')} failed:\n${result.stderr}`);
  checkInstallScripts(result.stderr, `installing ${args.join(' ')}`);
}

/** Runs a block of shell commands as written (as a user pastes it), with `sh -e`, in `cwd`. */
export function runShell(script, cwd, what) {
  const result = spawnSync('sh', ['-e', '-c', script], { cwd, env: quietNpm, encoding: 'utf8' });
  if (result.status !== 0) fail(`${what} failed:\n${script}\n${result.stdout}\n${result.stderr}`);
  checkInstallScripts(result.stderr, what);
  return result.stdout;
}

/** A free TCP port. */
export const freePort = () =>
  new Promise((done) => {
    const probe = createServer().listen(0, () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

/**
 * Starts `command` in its own process group (so that stopping it also stops the processes it
 * starts, as tsx does) and waits until it prints `ready`; answers what it printed so far and a
 * function that stops it.
 */
export async function startServer(command, args, cwd, ready, env = process.env) {
  const server = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  try {
    await new Promise((done, reject) => {
      const read = (chunk) => {
        output += chunk;
        if (output.includes(ready)) done();
      };
      server.stdout.on('data', read);
      server.stderr.on('data', read);
      server.on('exit', (code) => reject(new Error(`exited with ${code}`)));
      setTimeout(() => reject(new Error('did not start within 30 s')), 30_000);
    });
  } catch (error) {
    if (server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
    fail(`${[command, ...args].join(' ')} ${error.message}:\n${output}`);
  }
  return { output, stop: () => process.kill(-server.pid, 'SIGTERM') };
}
