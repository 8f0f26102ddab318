import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';

/** Where better-sqlite3 is, for the other process to load the same binding. */
const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/** Takes the write lock (`BEGIN IMMEDIATE`), says "locked", and commits when its stdin gets a line. */
const HOLDER = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2]);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
process.stdin.once('data', () => {
  db.exec('COMMIT');
  db.close();
  process.stdout.write('released\\n');
  process.exit(0);
});
`;

function line(child: ChildProcess, expected: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (!seen.includes(`${expected}\n`)) return;
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      resolve();
    };
    const onExit = () => reject(new Error(`the lock holder ended without saying "${expected}" (said "${seen}")`));
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** A write lock on a SQLite file, held by another process until `release`. */
export interface HeldLock {
  release(): Promise<void>;
  /** Ends the process (the lock goes with it) if it is still running. */
  kill(): void;
}

/**
 * Starts another Node process that holds the write lock of the SQLite file at `path` (its
 * `BEGIN IMMEDIATE` transaction), answering once the lock is taken.
 *
 * @example
 * ```ts
 * const lock = await lockInAnotherProcess('books.sqlite');
 * await lock.release();
 * ```
 */
export async function lockInAnotherProcess(path: string): Promise<HeldLock> {
  const child = spawn(process.execPath, ['-e', HOLDER, driver, path], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  await line(child, 'locked');
  return {
    async release() {
      child.stdin?.write('go\n');
      await exited;
    },
    kill() {
      if (child.exitCode === null) child.kill();
    },
  };
}
