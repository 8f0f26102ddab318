import type { TestProject } from 'vitest/node';
import { ping, SERVERS, type ServerName, skipLine } from './databases.js';

/**
 * Pings every database server once per run, prints one line for each that is skipped, and
 * tells the test files which are reachable (`serverAvailable` reads it).
 */
export default async function setup(project: TestProject): Promise<void> {
  const names = Object.keys(SERVERS) as ServerName[];
  const reasons = await Promise.all(names.map((name) => ping(SERVERS[name].url)));
  const reachable = {} as Record<ServerName, boolean>;
  for (const [index, name] of names.entries()) {
    const reason = reasons[index];
    reachable[name] = reason === undefined;
    if (reason !== undefined && process.env.CI !== 'true') console.warn(skipLine(name, reason));
  }
  project.provide('reachableServers', reachable);
}
