// Child process entry: `node bench/server.mjs <contender> <books> [db]`. Loads the contender from
// bench/contenders/<name>.mjs, lets it build its server over the generated books (kept in `db`,
// run.mjs's `--db`: memory, postgres or sqlite), and tells the parent the port over IPC. Then it
// obeys the parent's messages, answering each with `{ type: 'done', id, result }`: `cpu` answers
// the CPU time the server used so far (µs, user + system: this process's, or the contender's own
// child's when it runs another runtime); `profile-start` and `profile-stop` (with a `file` to
// write the V8 CPU profile to) bracket the timed rounds of one scenario; `stop` closes the server
// and exits.
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { makeBooks } from './data.mjs';

const [name, count, db = 'memory'] = process.argv.slice(2);
const { default: contender } = await import(`./contenders/${name}.mjs`);
const server = await contender.start({ books: makeBooks(Number(count)), db });
let session;

const commands = {
  cpu() {
    if (server.cpu) return server.cpu(); // a server in a process of its own (another runtime)
    const { user, system } = process.cpuUsage();
    return user + system;
  },
  async 'profile-start'() {
    if (!session) {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 250 });
    }
    await session.post('Profiler.start');
  },
  async 'profile-stop'({ file }) {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
  },
  async stop() {
    await server.close();
    process.exit(0);
  },
};

process.on('message', async (message) => {
  const result = await commands[message.type](message);
  process.send({ type: 'done', id: message.id, result });
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready', port: server.port });
