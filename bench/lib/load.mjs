import autocannon from 'autocannon';
import { cpuBetween } from './databases.mjs';

/**
 * Loads one server (from lib/servers.mjs) with one scenario for `duration` seconds over
 * `connections` keep-alive connections (no pipelining) and answers requests per second, p99
 * latency (ms, autocannon's 1 ms resolution), the server's CPU time per request (µs: unlike
 * requests per second, it barely moves when other processes compete for the CPU), the database
 * server's (`dbCpu`, when `server.databaseCpu` reads it: PostgreSQL's processes; SQLite runs in
 * the server's own) and the failures seen.
 */
export async function load({ server, scenario, duration, connections, amount }) {
  // A contender with an API of another shape (Feathers, json-server) gets the same request in its dialect.
  const make = server.dialect ? () => server.dialect.translate(scenario.request()) : scenario.request;
  const requests = scenario.varies ? [{ setupRequest: (request) => ({ ...request, ...make() }) }] : [make()];
  const cpuBefore = await server.command('cpu');
  const dbBefore = server.databaseCpu?.();
  const length = amount === undefined ? { duration } : { amount }; // `amount`: that many requests instead
  const result = await autocannon({ url: `http://127.0.0.1:${server.port}`, connections, ...length, requests });
  const dbCpu = dbBefore && cpuBetween(dbBefore, server.databaseCpu());
  const cpu = (await server.command('cpu')) - cpuBefore;
  return {
    rps: result.requests.total / result.duration,
    p99: result.latency.p99,
    cpu: cpu / result.requests.total,
    ...(dbCpu === undefined ? {} : { dbCpu: dbCpu / result.requests.total }),
    requests: result.requests.total,
    seconds: result.duration,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
