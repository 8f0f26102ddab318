// Summarizes a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self time
// and the most total time (time with the function anywhere on the stack), as shares of the
// busy (non-idle) samples. Usage: node bench/lib/profile-summary.mjs <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const IDLE = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

function where({ url, lineNumber }) {
  if (!url) return '';
  const path = url.startsWith('file://') ? relative(ROOT, fileURLToPath(url)) : url;
  return `${path.replace(/^node_modules\//, '')}:${lineNumber + 1}`;
}

/** Who owns a frame: a package of this repository, an npm package, Node itself, or V8 (native). */
function owner({ url, functionName }) {
  if (functionName === '(garbage collector)') return '(garbage collector)';
  if (!url) return '(native: syscalls, microtask queue...)';
  if (url.startsWith('node:')) return 'node internals';
  const path = url.startsWith('file://') ? relative(ROOT, fileURLToPath(url)) : url;
  const ours = /^(?:packages|examples)\/([^/]+)\//.exec(path);
  if (ours) return `${ours[1]} (this repository)`;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  return dependency ? dependency[1] : path;
}

/**
 * Answers `{ busy, gc, owners, self, total }`: `self` and `total` list `{ name, at, share }` per
 * function, `owners` the self time per package, largest first.
 */
export function summarize(profile, top = 25) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const key = (node) => `${node.callFrame.functionName || '(anonymous)'}\t${where(node.callFrame)}`;

  const self = new Map();
  const total = new Map();
  const owners = new Map();
  let busy = 0;
  let gc = 0;
  profile.samples.forEach((id, index) => {
    const time = profile.timeDeltas[index] ?? 0;
    const node = byId.get(id);
    const name = node.callFrame.functionName;
    if (name === '(garbage collector)') gc += time;
    if (name === '(idle)' || name === '(program)' || name === '(root)') return;
    // Starting and stopping the profiler (node:inspector) is the measurement, not the server.
    for (let at = id; at !== undefined; at = parent.get(at))
      if (byId.get(at).callFrame.url === 'node:inspector') return;
    busy += time;
    self.set(key(node), (self.get(key(node)) ?? 0) + time);
    const by = owner(node.callFrame);
    owners.set(by, (owners.get(by) ?? 0) + time);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (IDLE.has(frame.callFrame.functionName)) continue;
      const k = key(frame);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + time);
    }
  });
  const list = (map) =>
    [...map]
      .sort((x, y) => y[1] - x[1])
      .slice(0, top)
      .map(([k, time]) => {
        const [name, at] = k.split('\t');
        return { name, at, share: time / busy };
      });
  const byOwner = [...owners].sort((x, y) => y[1] - x[1]).map(([name, time]) => ({ name, share: time / busy }));
  return { busy: busy / 1e6, gc: gc / busy, owners: byOwner, self: list(self), total: list(total) };
}

/** The summary as text. */
export function formatSummary(summary) {
  const percent = (share) => `${(share * 100).toFixed(1).padStart(5)}%`;
  const lines = [`busy ${summary.busy.toFixed(1)} s, of which GC ${percent(summary.gc)}`, '', 'self time by owner:'];
  for (const { name, share } of summary.owners) lines.push(`  ${percent(share)}  ${name}`);
  lines.push('', 'self time:');
  for (const { name, at, share } of summary.self) lines.push(`  ${percent(share)}  ${name}  ${at}`);
  lines.push('', 'total time (on the stack):');
  for (const { name, at, share } of summary.total) lines.push(`  ${percent(share)}  ${name}  ${at}`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top = '25'] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node bench/lib/profile-summary.mjs <file.cpuprofile> [top]');
    process.exit(2);
  }
  console.log(formatSummary(summarize(JSON.parse(readFileSync(file, 'utf8')), Number(top))));
}
