// The floor plan holds: inside @resourcery/core every import points down the layers (a folder
// imports only its own and lower folders); the core's request path uses no Node-only API; no
// source file of any package is over 250 lines. Run by CI; exits 1 with every breach listed.
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
    const lines = readFileSync(file, 'utf8').split('\n').length - 1;
    if (lines > MAX_LINES) breaches.push(`${relative(root, file)} has ${lines} lines (at most ${MAX_LINES})`);
  }
}

if (breaches.length > 0) {
  console.error(`Architecture check failed:\n- ${breaches.join('\n- ')}`);
  process.exit(1);
}
console.log(`Architecture check: layers point down (${LAYERS.join(' → ')}), no file over ${MAX_LINES} lines.`);
