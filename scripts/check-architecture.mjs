// The floor plan holds: inside @resourcery/core every import points down the layers (a folder
// imports only its own and lower folders); the core's request path uses no Node-only API; no
// source file of any package is over 250 lines; no package replaces a method of a library's
// object at run time (a subclass, a wrapper the package owns or the library's own extension
// point instead). Run by CI; exits 1 with every breach listed.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const core = join(root, 'packages/core/src');

/** Bottom to top: each layer may import the ones before it, never one after it. */
export const LAYERS = [
  'contract',
  'schema',
  'store',
  'errors',
  'query',
  'access',
  'http',
  'resource',
  'openapi',
  'api',
];
/** Files that may use Node-only APIs, and why. */
const NODE_ONLY = {
  'openapi/docs-page.ts': 'serves Swagger UI assets read from node_modules (the docs page is optional)',
};
const MAX_LINES = 250;
/**
 * `object.method = …` for the members of Kysely's, the drivers' and Node's objects that a fast
 * path or a shutdown is tempted to replace.
 */
const PATCH =
  /^\s*(?!this\.)[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\.(createAdapter|createDriver|createQueryCompiler|createIntrospector|prepare|query|connect|end|release|destroy|destroySoon|executeQuery|streamQuery|write|emit)\s*=(?!=)/gm;
/** Files that replace such a method, and why no supported way exists. */
const PATCHES = {
  'packages/node/src/close-gracefully.ts':
    "Node ends a response that closes its connection with socket.destroySoon(), which resets a connection whose request body is still coming; no option or event lets the server linger instead (Node's http server calls it itself after 'finish')",
};

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.ts$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The layer of a file of core: its top folder's rank; the entry files above every layer. */
function rank(file) {
  const top = relative(core, file).split('/')[0];
  const index = LAYERS.indexOf(top);
  return index === -1 ? LAYERS.length : index;
}

const breaches = [];
for (const file of sources(core)) {
  const text = readFileSync(file, 'utf8');
  const name = relative(core, file);
  for (const [, specifier] of text.matchAll(/(?:from|import)\s+'([^']+)'/g)) {
    if (specifier.startsWith('.')) {
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      if (rank(target) > rank(file)) {
        breaches.push(`${name} imports ${relative(core, target)}: a layer above it (${LAYERS.join(' → ')})`);
      }
    } else if (specifier.startsWith('node:') && !(name in NODE_ONLY)) {
      breaches.push(`${name} imports ${specifier}: the core must run on any runtime`);
    }
  }
  if (/\bBuffer\b/.test(text.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')) && !(name in NODE_ONLY)) {
    breaches.push(`${name} uses Buffer: the core must run on any runtime (use Uint8Array)`);
  }
}

for (const pkg of readdirSync(join(root, 'packages'))) {
  for (const file of sources(join(root, 'packages', pkg, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const name = relative(root, file);
    const lines = text.split('\n').length - 1;
    if (lines > MAX_LINES) breaches.push(`${name} has ${lines} lines (at most ${MAX_LINES})`);
    for (const [patch] of text.matchAll(PATCH)) {
      if (!(name in PATCHES)) breaches.push(`${name} replaces a library's method at run time: ${patch.trim()}`);
    }
  }
}

if (breaches.length > 0) {
  console.error(`Architecture check failed:\n- ${breaches.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `Architecture check: layers point down (${LAYERS.join(' → ')}), no file over ${MAX_LINES} lines, no library method replaced at run time.`,
);
