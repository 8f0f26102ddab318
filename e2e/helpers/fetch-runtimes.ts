import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The Fetch runtimes the example's `server-fetch.ts` runs on, installed from npm as dev dependencies. */
export const RUNTIMES = { bun: 'Bun', deno: 'Deno' } as const;
export type RuntimeName = keyof typeof RUNTIMES;

/**
 * The command of `npm run start:<runtime> -w examples/books` (so the test runs the script's own
 * flags, Deno's permissions among them), the runtime taken from node_modules/.bin, without the
 * file it runs nor the build that comes first.
 */
export function runtimeCommand(name: RuntimeName): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, 'examples/books/package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  // After `&&`: what runs once build-if-stale has built what is stale.
  const words = (scripts[`start:${name}`] ?? '').split('&&').at(-1)?.trim().split(/\s+/) ?? [];
  if (words[0] !== name || words.at(-1) !== 'dist/server-fetch.js') {
    throw new Error(`examples/books: the start:${name} script is not "${name} … dist/server-fetch.js"`);
  }
  return [join(root, 'node_modules/.bin', name), ...words.slice(1, -1)];
}

/**
 * Whether the runtime's binary runs (`--version`). When it does not, registers a failing test
 * under `CI=true` (CI must not pass with a runtime silently skipped), a skipped one otherwise.
 */
export function runtimeAvailable(name: RuntimeName): boolean {
  const [binary = name] = runtimeCommand(name);
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (result.status === 0) return true;
  const reason = result.error?.message ?? (`${result.stderr ?? ''}`.trim() || `exit code ${result.status}`);
  const title = `${RUNTIMES[name]} runs (${binary})`;
  if (process.env.CI === 'true') {
    it(title, () => {
      throw new Error(`${RUNTIMES[name]} does not run (${reason}) and CI=true: npm ci installs it (devDependency)`);
    });
  } else {
    console.warn(`[resourcery] ${RUNTIMES[name]} does not run (${reason}): skipping its suites (CI=true fails)`);
    it.skip(title, () => {});
  }
  return false;
}
