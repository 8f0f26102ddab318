// What each part of the library's hot path costs, from CPU profiles kept by `run.mjs --profile`.
// Every busy sample goes to the innermost function of packages/core, packages/express or
// packages/node on its stack (so time in class-validator counts for validateInput, time in
// JSON.stringify for the function that called it), then functions are grouped into parts; with
// the CPU time per request, a share becomes µs per request. Usage:
//   node bench/lib/hot-path.mjs <cpu µs/req> <file.cpuprofile>
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The parts, each a list of function names of packages/core, packages/express or packages/node. */
export const PARTS = {
  'adapter (neutral request, copying the response)': [
    'toNeutralRequest',
    'headersOf',
    'joined',
    'middleware',
    'listener',
    'send',
    'headersToWrite',
  ],
  'routing, context, JSON.stringify (answer, handle)': ['answer', 'handle', 'Context', 'describeApi'],
  'query parsing (parse + resolve)': ['parseIndexQuery', 'resolveIndexQuery', 'convertValue', 'parseId'],
  'pagination headers (Link, X-Total-Count)': ['paginationHeaders', 'pageUrl', 'href'],
  'body reading (readJsonBody: bytes, UTF-8, depth check, JSON.parse)': [
    'readJsonBody',
    'readDeclared',
    'readChunks',
    'nestingDepth',
    'toBytes',
    'onData',
    'onEnd',
    'isPlainStream',
    'isJsonType',
    'mayNestDeeper',
  ],
  'validation (validateInput, class-transformer, class-validator)': [
    'validateInput',
    'toInstance',
    'isPlainModel',
    'hasType',
    'isStorableString',
    'collect',
    'validationErrors',
    'planOf',
    'passes',
  ],
  'store (memory: index, top-k, copies)': [
    'list',
    'find',
    'create',
    'update',
    'destroy',
    'topK',
    'candidates',
    'walkIds',
    'insert',
    'write',
    'copy',
    'compareScalars',
    'compareCodePoints',
    'fixup',
    'add',
    'drop',
  ],
  'ETag (etagOf, If-None-Match)': ['etagOf', 'sortedFields', 'quoted', 'jsonOf', 'notModified', 'guardIfMatch'],
  'rendering records': ['render', 'single'],
  'writing the response (the adapter callback: Node http headers, socket write)': [
    '(anonymous in express)',
    '(anonymous in node)',
  ],
  'anonymous core closures (store matcher and comparator, promise callbacks)': ['(anonymous in core)'],
  'hook machinery and steps (runAction, runCore, work)': [
    'runAction',
    'runCore',
    'dispatch',
    'work',
    'fetchOr404',
    'fetch',
    'list',
    'insert',
    'modify',
    'prepare',
    'scope',
    'toConditions',
  ],
};

const OURS = /\/packages\/(core|express|node)\/dist\//;

/** `{ shares: { part: share }, functions: Map<name, share> }` of the busy samples (see above). */
export function hotPath(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const functions = new Map();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const time = profile.timeDeltas[index] ?? 0;
    const name = byId.get(id).callFrame.functionName;
    if (name === '(idle)' || name === '(program)' || name === '(root)') return;
    let ours;
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at).callFrame;
      if (frame.url === 'node:inspector') return;
      const owner = OURS.exec(frame.url)?.[1];
      if (ours === undefined && owner) ours = frame.functionName || `(anonymous in ${owner})`;
    }
    busy += time;
    if (ours !== undefined) functions.set(ours, (functions.get(ours) ?? 0) + time);
  });
  const shares = Object.fromEntries(Object.keys(PARTS).map((part) => [part, 0]));
  shares['other library functions'] = 0;
  for (const [fn, time] of functions) {
    functions.set(fn, time / (busy || 1));
    const part = Object.keys(PARTS).find((name) => PARTS[name].includes(fn)) ?? 'other library functions';
    shares[part] += time / (busy || 1);
  }
  return { shares, functions };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [cpu, file] = process.argv.slice(2);
  const { shares, functions } = hotPath(JSON.parse(readFileSync(file, 'utf8')));
  if (process.env.FUNCTIONS)
    for (const [fn, share] of functions) console.log(`      ${(share * 100).toFixed(1)}% ${fn}`);
  for (const [part, share] of Object.entries(shares)) {
    if (share > 0)
      console.log(
        `${(share * 100).toFixed(1).padStart(5)}%  ${(share * Number(cpu)).toFixed(0).padStart(4)} µs  ${part}`,
      );
  }
}
