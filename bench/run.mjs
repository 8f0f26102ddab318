// The HTTP benchmark: `npm run bench` (builds first), or `node bench/run.mjs --help`.
// Every contender (bench/contenders/<name>.mjs) serves the same books in a child process of its
// own; their answers are compared before anything is timed; then autocannon, in this process,
// loads them in interleaved rounds (A B, B A, A B...) per scenario, and the medians are reported
// with each contender's ratio to the baseline from the same run (the median of the per-round
// ratios, see lib/stats.mjs). `--db postgres|sqlite` runs the SQL contenders instead of the
// memory-store ones, each on a fresh database of its own (lib/databases.mjs).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { verify } from './checks.mjs';
import { chartSvg } from './lib/chart.mjs';
import { databaseName, postgresCpu } from './lib/databases.mjs';
import { load } from './lib/load.mjs';
import { options } from './lib/options.mjs';
import { formatSummary, summarize } from './lib/profile-summary.mjs';
import { legend, markdownTable } from './lib/report.mjs';
import { startServer } from './lib/servers.mjs';
import { summarizeRounds } from './lib/stats.mjs';
import { baselineOf, takesPart } from './scenarios.mjs';

const HERE = new URL('.', import.meta.url);
const RESULTS = new URL('results/', HERE);
const PROFILES = new URL('profiles/', RESULTS);

function machine() {
  const cpus = os.cpus();
  return {
    cpus: os.availableParallelism(),
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
  };
}

const log = (line) => process.stderr.write(`${line}\n`);
const format = (rps) => Math.round(rps).toLocaleString('en-US');

/**
 * Times one scenario: a warm-up per server, then `rounds` rounds, each loading every server in
 * turn (the order flips every round), or all at once with `--together`. Answers
 * `Map<contender, measurements>`. With `--profile`, every server is profiled over the timed
 * rounds and `saveProfile(server)` collects it. A server
 * first loaded after other scenarios ran (`warmed` lists those loaded before: express-sql-nocount
 * joins for one scenario) is warmed up as long as one scenario's timed rounds, since the others
 * have been loaded that long at least.
 */
async function measure(servers, scenario, settings, saveProfile, warmed) {
  for (const server of servers) {
    const late = warmed.size > 0 && !warmed.has(server.name);
    const duration = late ? Math.max(settings.warmup, settings.rounds * settings.duration) : settings.warmup;
    if (duration > 0) await load({ server, scenario, duration, connections: settings.connections });
  }
  const rounds = new Map(servers.map((server) => [server.name, []]));
  if (settings.profile) await Promise.all(servers.map((server) => server.command('profile-start')));
  const record = (server, round, measured) => {
    if (measured.non2xx > 0 || measured.errors > 0) {
      throw new Error(
        `${server.name} failed ${measured.non2xx} responses and ${measured.errors} requests in ${scenario.name}`,
      );
    }
    rounds.get(server.name).push(measured);
    const dbCpu = measured.dbCpu === undefined ? '' : `  DB CPU ${format(measured.dbCpu).padStart(4)} µs/req`;
    log(
      `${scenario.name.padEnd(24)} round ${round + 1}/${settings.rounds}  ${server.name.padEnd(20)}` +
        `${format(measured.rps).padStart(8)} req/s  p99 ${String(measured.p99).padStart(3)} ms` +
        `  CPU ${format(measured.cpu).padStart(4)} µs/req${dbCpu}`,
    );
  };
  // On SQL, pools close connections idle for 10 s (pg-pool's default, the library's too), as
  // each one is while the others are timed: a few untimed requests open them again first.
  const reconnect = (server) =>
    settings.db === 'memory' ||
    load({ server, scenario, connections: settings.connections, amount: 20 * settings.connections });
  for (let round = 0; round < settings.rounds; round++) {
    if (settings.together) {
      for (const server of servers) await reconnect(server);
      const measured = await Promise.all(servers.map((server) => load({ ...settings, server, scenario })));
      for (const [i, server] of servers.entries()) record(server, round, measured[i]);
      continue;
    }
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      await reconnect(server);
      record(server, round, await load({ ...settings, server, scenario }));
    }
  }
  if (settings.profile) for (const server of servers) await saveProfile(server);
  return rounds;
}

async function main() {
  const { settings, modules } = await options();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  mkdirSync(settings.profile ? PROFILES : RESULTS, { recursive: true });
  const descriptions = Object.fromEntries(settings.contenders.map((name) => [name, modules.get(name).description]));
  const about = machine();
  log(`${about.cpus} CPUs (${about.cpuModel}), Node ${about.node}, load average ${about.loadAverage.join(' ')}`);
  log(
    `${settings.books} books in ${settings.db}; ${settings.rounds} round(s) of ${settings.duration} s per scenario ` +
      `and contender, ${settings.warmup} s warm-up, ${settings.connections} connections` +
      (settings.together ? ' each, contenders loaded together' : ''),
  );

  const servers = [];
  const stopAll = () => Promise.all(servers.map((server) => server.stop()));
  process.once('SIGINT', () => stopAll().then(() => process.exit(130)));
  try {
    for (const name of settings.contenders) {
      const { dialect, scenarios } = modules.get(name);
      // `dialect`: how a contender with an API of another shape is spoken to (see checks.mjs);
      // `scenarios`: the only ones it takes part in; `databaseCpu`: PostgreSQL's CPU clock for it.
      const database = databaseName(name);
      const databaseCpu = settings.db === 'postgres' ? () => postgresCpu(database) : undefined;
      servers.push({ ...(await startServer(name, settings.books, settings.db)), dialect, scenarios, databaseCpu });
      log(`started ${name}: ${descriptions[name]}`);
    }
    const names = servers.map((server) => server.name);
    const checked = await verify(servers, settings.baseline, settings);
    log(
      servers.some((server) => server.name === settings.baseline) && servers.length > 1
        ? `checked: ${checked} answers alike (each compared with its baseline's)`
        : `checked: the scenarios' requests succeed (no baseline to compare with)`,
    );

    const results = [];
    const profiles = [];
    const exceptions = [];
    const warmed = new Set();
    for (const scenario of settings.scenarios) {
      const taking = servers.filter((server) => takesPart(server, scenario, names, settings.baseline));
      const baseline = baselineOf(scenario, names, settings.baseline);
      if (baseline !== settings.baseline) exceptions.push({ title: scenario.title, baseline });
      const profile = async (server) => {
        const file = new URL(`${server.name}-${scenario.name}-${stamp}.cpuprofile`, PROFILES);
        await server.command('profile-stop', { file: file.pathname });
        profiles.push({ contender: server.name, scenario: scenario.name, file });
      };
      const rounds = await measure(taking, scenario, settings, profile, warmed);
      for (const server of taking) warmed.add(server.name);
      for (const row of summarizeRounds(rounds, baseline)) {
        results.push({ scenario: scenario.name, title: scenario.title, baseline, ...row });
      }
    }
    await stopAll();

    const table = markdownTable(results);
    console.log(`\n${table}\n\n${legend(settings, exceptions)}\n`);
    const report = {
      date: new Date().toISOString(),
      machine: about,
      settings: { ...settings, scenarios: settings.scenarios.map(({ name }) => name) },
      contenders: descriptions,
      scenarios: settings.scenarios.map(({ name, title, description, baseline }) => ({
        name,
        title,
        description,
        baseline: baselineOf({ baseline }, names, settings.baseline),
      })),
      checkedRequests: checked,
      results,
      table,
    };
    const out = settings.out ?? new URL(`${stamp}.json`, RESULTS).pathname;
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(new URL('latest.json', RESULTS), `${JSON.stringify(report, null, 2)}\n`);
    // The chart of this run: bench/results/chart.svg always; docs/performance-chart.svg with --chart.
    const chart = chartSvg(report);
    writeFileSync(new URL('chart.svg', RESULTS), chart);
    if (settings.chart) writeFileSync(new URL('../docs/performance-chart.svg', HERE), chart);
    log(`results: ${out}${settings.chart ? ' (chart: docs/performance-chart.svg)' : ''}`);

    for (const { contender, scenario, file } of profiles) {
      const summary = formatSummary(summarize(JSON.parse(readFileSync(file, 'utf8')), 25));
      console.log(`\n## Profile: ${contender}, ${scenario} (${file.pathname})\n\n${summary}`);
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
}

main().catch((error) => {
  console.error(`bench: ${error.message}`);
  process.exit(1);
});
