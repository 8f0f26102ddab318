import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BIN = new URL('../../node_modules/.bin/', import.meta.url);

/** Clock ticks per second of /proc/<pid>/stat (100 on nearly every Linux). */
let ticksPerSecond;
function clockTicks() {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** CPU time (user + system, µs) a process used so far, from /proc (Linux); 0 where there is none. */
function cpuOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3, the state
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks(); // utime, stime
  } catch {
    return 0;
  }
}

/**
 * Runs `script` (a file under bench/) with Bun from node_modules/.bin, over
 * `books` seeded books, and resolves `{ port, cpu, close }` once it prints `port <n>`: what a
 * contender's `start` answers. `cpu()` is the child's CPU time, not the calling process's.
 */
export async function startBunChild(script, books) {
  const runtime = 'bun';
  const file = fileURLToPath(new URL(`../${script}`, import.meta.url));
  // Bun reads the nearest tsconfig.json, and the repository's maps the workspace packages to
  // their sources: the base one has no paths, so the built packages are loaded, as elsewhere.
  const tsconfig = `--tsconfig-override=${fileURLToPath(new URL('../../tsconfig.base.json', import.meta.url))}`;
  const child = spawn(fileURLToPath(new URL(runtime, BIN)), [tsconfig, file, String(books.length)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${runtime} ${script} did not listen within 60 s`)), 60_000);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${runtime} ${script} exited with ${code}: ${output}`)));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /^port (\d+)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  return {
    port,
    cpu: () => cpuOf(child.pid),
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
