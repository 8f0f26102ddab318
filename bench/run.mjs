// The HTTP benchmark: `npm run bench` (builds first), or `node bench/run.mjs --help`.
// Every contender (bench/contenders/<name>.mjs) serves the same books in a child process of its
// own; their answers are compared before anything is timed; then autocannon, in this process,
// loads them in interleaved rounds (A B, B A, A B...) per scenario, and the medians are reported
// with each contender's ratio to the baseline from the same run (the median of the per-round
// ratios, see lib/stats.mjs).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { verify } from './checks.mjs';
import { chartSvg } from './lib/chart.mjs';
import { load } from './lib/load.mjs';
import { formatSummary, summarize } from './lib/profile-summary.mjs';
import { legend, markdownTable } from './lib/report.mjs';
import { startServer } from './lib/servers.mjs';
import { summarizeRounds } from './lib/stats.mjs';
import { scenarios as allScenarios } from './scenarios.mjs';

const HERE = new URL('.', import.meta.url);
const RESULTS = new URL('results/', HERE);
const PROFILES = new URL('profiles/', RESULTS);

const HELP = `Usage: node bench/run.mjs [options]   (npm run bench -- [options] builds first)

  --books N         books seeded into every contender (default 10000)
  --duration S      seconds per timed round (default 2)
  --rounds N        interleaved rounds per scenario; medians are reported (default 6)
  --warmup S        seconds of untimed load per contender before each scenario (default 1)
  --connections N   concurrent keep-alive connections (default 10)
  --only A,B        contenders to run (default: every bench/contenders/*.mjs)
  --baseline NAME   the contender ratios are computed against (default express-by-hand)
  --scenarios A,B   scenarios to run (default: all; show, index-page, index-filter-sort-page, update, create)
  --quick           smoke run: 1 round of 1 s after 1 s of warm-up
  --profile         CPU-profile every server during each scenario's timed rounds, summarize
                    the profiles and keep them in bench/results/profiles/
  --chart           also write the run's chart to docs/performance-chart.svg
                    (bench/results/chart.svg is always written)
  --out FILE        results file (default bench/results/<date>.json, also copied to latest.json)
  --help            this text`;

function options() {
  const { values } = parseArgs({
    options: {
      books: { type: 'string', default: '10000' },
      duration: { type: 'string', default: '2' },
      rounds: { type: 'string', default: '6' },
      warmup: { type: 'string', default: '1' },
      connections: { type: 'string', default: '10' },
      only: { type: 'string' },
      baseline: { type: 'string', default: 'express-by-hand' },
      scenarios: { type: 'string' },
      quick: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      chart: { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const number = (name, minimum) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < minimum) throw new Error(`--${name} must be an integer >= ${minimum}`);
    return value;
  };
  const available = readdirSync(new URL('contenders/', HERE))
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => file.slice(0, -4));
  const contenders = values.only ? values.only.split(',') : available;
  for (const name of contenders) {
    if (!available.includes(name)) throw new Error(`Unknown contender "${name}" (known: ${available.join(', ')})`);
  }
  const books = number('books', 100);
  const scenarios = allScenarios({ books }).filter(
    (scenario) => !values.scenarios || values.scenarios.split(',').includes(scenario.name),
  );
  if (scenarios.length === 0) throw new Error(`--scenarios: none of "${values.scenarios}" is a scenario`);
  return {
    books,
    duration: values.quick ? 1 : number('duration', 1),
    rounds: values.quick ? 1 : number('rounds', 1),
    warmup: values.quick ? 1 : number('warmup', 0),
    connections: number('connections', 1),
    contenders,
    baseline: values.baseline,
    scenarios,
    profile: values.profile,
    chart: values.chart,
    out: values.out,
  };
}

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
 * turn (the order flips every round). Answers `Map<contender, measurements>`. With `--profile`,
 * every server is profiled over the timed rounds and `saveProfile(server)` collects it.
 */
async function measure(servers, scenario, settings, saveProfile) {
  if (settings.warmup > 0) {
    for (const server of servers) {
      await load({ server, scenario, duration: settings.warmup, connections: settings.connections });
    }
  }
  const rounds = new Map(servers.map((server) => [server.name, []]));
  if (settings.profile) await Promise.all(servers.map((server) => server.command('profile-start')));
  for (let round = 0; round < settings.rounds; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      const measured = await load({ ...settings, server, scenario });
      if (measured.non2xx > 0 || measured.errors > 0) {
        throw new Error(
          `${server.name} failed ${measured.non2xx} responses and ${measured.errors} requests in ${scenario.name}`,
        );
      }
      rounds.get(server.name).push(measured);
      log(
        `${scenario.name.padEnd(24)} round ${round + 1}/${settings.rounds}  ${server.name.padEnd(18)}` +
          `${format(measured.rps).padStart(8)} req/s  p99 ${String(measured.p99).padStart(3)} ms` +
          `  CPU ${format(measured.cpu).padStart(4)} µs/req`,
      );
    }
  }
  if (settings.profile) for (const server of servers) await saveProfile(server);
  return rounds;
}

async function main() {
  const settings = options();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  mkdirSync(settings.profile ? PROFILES : RESULTS, { recursive: true });
  const modules = Object.fromEntries(
    await Promise.all(
      settings.contenders.map(async (name) => [name, (await import(`./contenders/${name}.mjs`)).default]),
    ),
  );
  const descriptions = Object.fromEntries(settings.contenders.map((name) => [name, modules[name].description]));
  const about = machine();
  log(`${about.cpus} CPUs (${about.cpuModel}), Node ${about.node}, load average ${about.loadAverage.join(' ')}`);
  log(
    `${settings.books} books; ${settings.rounds} round(s) of ${settings.duration} s per scenario and contender, ` +
      `${settings.warmup} s warm-up, ${settings.connections} connections`,
  );

  const servers = [];
  const stopAll = () => Promise.all(servers.map((server) => server.stop()));
  process.once('SIGINT', () => stopAll().then(() => process.exit(130)));
  try {
    for (const name of settings.contenders) {
      // `dialect`: how a contender with an API of another shape is spoken to (see checks.mjs).
      servers.push({ ...(await startServer(name, settings.books)), dialect: modules[name].dialect });
      log(`started ${name}: ${descriptions[name]}`);
    }
    const checked = await verify(servers, settings.baseline, settings);
    log(
      servers.some((server) => server.name === settings.baseline) && servers.length > 1
        ? `checked: ${checked} requests answered alike by every contender`
        : `checked: the scenarios' requests succeed (no baseline to compare with)`,
    );

    const results = [];
    const profiles = [];
    for (const scenario of settings.scenarios) {
      const rounds = await measure(servers, scenario, settings, async (server) => {
        const file = new URL(`${server.name}-${scenario.name}-${stamp}.cpuprofile`, PROFILES);
        await server.command('profile-stop', { file: file.pathname });
        profiles.push({ contender: server.name, scenario: scenario.name, file });
      });
      for (const row of summarizeRounds(rounds, settings.baseline)) {
        results.push({ scenario: scenario.name, title: scenario.title, ...row });
      }
    }
    await stopAll();

    const table = markdownTable(results, settings.baseline);
    console.log(`\n${table}\n\n${legend(settings)}\n`);
    const report = {
      date: new Date().toISOString(),
      machine: about,
      settings: { ...settings, scenarios: settings.scenarios.map(({ name }) => name) },
      contenders: descriptions,
      scenarios: settings.scenarios.map(({ name, title, description }) => ({ name, title, description })),
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
