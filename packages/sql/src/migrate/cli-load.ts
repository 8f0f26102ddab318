// How `resourcery-sql` finds and loads a project's config and migration files: JavaScript as it
// is, TypeScript through the project's tsx (its loader hooks, registered once).
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Migration } from 'kysely';

/** The config names looked for, in order, when `--config` is not given. */
export const CONFIG_NAMES = [
  'resourcery.config.mjs',
  'resourcery.config.js',
  'resourcery.config.ts',
  'resourcery.config.mts',
] as const;

const TYPESCRIPT = /\.[mc]?ts$/;
/** Migration files: a name that starts with a digit (a timestamp), JavaScript or TypeScript (not `.d.ts`). */
const MIGRATION = /^\d.*(?<!\.d)\.(mjs|js|ts|mts)$/;

/** The config file: the one given (relative to `cwd`), else the first of {@link CONFIG_NAMES} that exists. */
export function configFile(cwd: string, given: string | undefined): string {
  if (given !== undefined) {
    const file = resolve(cwd, given);
    if (!existsSync(file)) throw new Error(`No config file ${file}`);
    return file;
  }
  const found = CONFIG_NAMES.map((name) => join(cwd, name)).find((file) => existsSync(file));
  if (!found) {
    throw new Error(
      `No ${CONFIG_NAMES.join(', ')} in ${cwd}: write one (see docs/stores.md#migrations) or pass --config <file>`,
    );
  }
  return found;
}

let typescript: Promise<void> | undefined;

/** Registers tsx's loader hooks (ESM and CommonJS), once: tsx must be installed beside this package. */
function loadTypeScript(file: string): Promise<void> {
  typescript ??= (async () => {
    const hooks = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]).catch(() => undefined);
    if (!hooks) {
      throw new Error(
        `${file} is TypeScript, which resourcery-sql loads through tsx: install it (npm install --save-dev tsx), ` +
          'or write the file as .mjs',
      );
    }
    for (const { register } of hooks) register();
  })();
  return typescript;
}

/** Imports a module of the project (TypeScript through tsx) and answers its default export, or the module. */
export async function loadModule(file: string): Promise<unknown> {
  if (TYPESCRIPT.test(file)) await loadTypeScript(file);
  const module = await import(pathToFileURL(file).href);
  return module.default ?? module;
}

/**
 * The migrations of a folder: files named `<timestamp>_<name>` (`.mjs`, `.js`, `.ts`, `.mts`),
 * each exporting `up` (and `down`) or a default; none when the folder does not exist yet.
 */
export async function folderMigrations(folder: string): Promise<Record<string, Migration>> {
  if (!existsSync(folder)) return {};
  const files = readdirSync(folder)
    .filter((file) => MIGRATION.test(file))
    .sort();
  const migrations: Record<string, Migration> = {};
  for (const file of files) {
    const name = file.replace(/\.(mjs|js|ts|mts)$/, '');
    if (name in migrations) throw new Error(`Two migration files are named ${name} in ${folder}`);
    migrations[name] = (await loadModule(resolve(folder, file))) as Migration;
  }
  return migrations;
}
