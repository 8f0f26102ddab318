import { fork } from 'node:child_process';

const SERVER = new URL('../server.mjs', import.meta.url);

/**
 * Forks bench/server.mjs for one contender over `books` generated books kept in `db` (memory,
 * postgres, sqlite) and resolves once it listens: `{ name, port, command(type, fields), stop() }`.
 * `command` sends one of the messages server.mjs obeys and resolves with its result when the
 * child has carried it out.
 */
export function startServer(name, books, db = 'memory') {
  const child = fork(SERVER, [name, String(books), db], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map();
  let next = 0;
  child.on('message', (message) => {
    if (message.type !== 'done') return;
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  });
  const command = (type, fields = {}) =>
    new Promise((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      child.send({ ...fields, type, id });
    });
  const stop = () => {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.send({ type: 'stop', id: 0 });
    });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within 60 s`));
    }, 60_000);
    const early = (code) => reject(new Error(`${name} exited with code ${code} before listening`));
    child.once('exit', early);
    child.once('message', ({ port }) => {
      clearTimeout(timer);
      child.off('exit', early);
      resolve({ name, port, command, stop });
    });
  });
}
