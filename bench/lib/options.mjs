// The command line of bench/run.mjs: its flags, and the contenders and scenarios they pick.
import { readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { scenarios as allScenarios } from '../scenarios.mjs';
import { DATABASES } from './databases.mjs';

const CONTENDERS = new URL('../contenders/', import.meta.url);

/** The run's baseline when `--baseline` is not given. */
const BASELINES = { memory: 'express-by-hand', postgres: 'express-sql', sqlite: 'express-sql' };

export const HELP = `Usage: node bench/run.mjs [options]   (npm run bench -- [options] builds first)

  --db KIND         where the contenders keep the books: memory (default: the memory-store
                    contenders), postgres (PostgreSQL at $BENCH_POSTGRES_URL, default
                    postgres://postgres@127.0.0.1:5432/postgres: a database bench_<contender> each,
                    dropped and made again) or sqlite (a fresh file each, WAL, synchronous=FULL);
                    runs the contenders that support it (their \`dbs\`) and adds the scenario
                    index-page-nocount (count=false, against express-sql-nocount)
  --sqlite-synchronous full|normal
                    SQLite's synchronous setting for every contender (default full)
  --books N         books seeded into every contender (default 10000)
  --duration S      seconds per timed round (default 2)
  --rounds N        interleaved rounds per scenario; medians are reported (default 6)
  --warmup S        seconds of untimed load per contender before each scenario (default 1)
  --connections N   concurrent keep-alive connections (default 10)
  --only A,B        contenders to run (default: every bench/contenders/*.mjs that supports --db)
  --baseline NAME   the contender ratios are computed against (default express-by-hand;
                    express-sql with --db postgres or sqlite)
  --scenarios A,B   scenarios to run (default: all; show, index-page, index-filter-sort-page, update,
                    create, and index-page-nocount with --db postgres or sqlite)
  --together        load the contenders of a round at the same time (each over its own
                    connections) instead of one after the other: the machine's load of the moment
                    falls on all alike, so their CPU per request compares closely; their req/s are
                    each one's share of the machine
  --quick           smoke run: 1 round of 1 s after 1 s of warm-up
  --profile         CPU-profile every server during each scenario's timed rounds, summarize
                    the profiles and keep them in bench/results/profiles/
  --chart           also write the run's chart to docs/performance-chart.svg
                    (bench/results/chart.svg is always written)
  --out FILE        results file (default bench/results/<date>.json, also copied to latest.json)
  --help            this text`;

/** Every contender module of bench/contenders/, by name (their default exports). */
async function contenderModules() {
  const names = readdirSync(CONTENDERS)
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => file.slice(0, -4));
  const modules = await Promise.all(
    names.map(async (name) => (await import(new URL(`${name}.mjs`, CONTENDERS))).default),
  );
  return new Map(names.map((name, i) => [name, modules[i]]));
}

/** The run's settings from the command line, and the contenders' modules (`modules`, by name). */
export async function options() {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'memory' },
      'sqlite-synchronous': { type: 'string', default: 'full' },
      books: { type: 'string', default: '10000' },
      duration: { type: 'string', default: '2' },
      rounds: { type: 'string', default: '6' },
      warmup: { type: 'string', default: '1' },
      connections: { type: 'string', default: '10' },
      only: { type: 'string' },
      baseline: { type: 'string' },
      scenarios: { type: 'string' },
      together: { type: 'boolean', default: false },
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
  const { db } = values;
  if (!DATABASES.includes(db)) throw new Error(`--db must be one of ${DATABASES.join(', ')} (got "${db}")`);
  const modules = await contenderModules();
  const supports = (name) => (modules.get(name).dbs ?? ['memory']).includes(db);
  // A contender with `optIn` (a variant measured against another, such as resourcery-logged) runs only when named.
  const byDefault = (name) => supports(name) && !modules.get(name).optIn;
  const contenders = values.only ? values.only.split(',') : [...modules.keys()].filter(byDefault);
  for (const name of contenders) {
    if (!modules.has(name)) throw new Error(`Unknown contender "${name}" (known: ${[...modules.keys()].join(', ')})`);
    if (!supports(name)) throw new Error(`Contender "${name}" does not run with --db ${db}`);
  }
  const synchronous = values['sqlite-synchronous'];
  if (!['full', 'normal'].includes(synchronous)) throw new Error('--sqlite-synchronous must be full or normal');
  // The contenders' processes (forked after this) read it from their environment.
  process.env.BENCH_SQLITE_SYNCHRONOUS = synchronous;
  const books = number('books', 100);
  const scenarios = allScenarios({ books, db }).filter(
    (scenario) => !values.scenarios || values.scenarios.split(',').includes(scenario.name),
  );
  if (scenarios.length === 0) throw new Error(`--scenarios: none of "${values.scenarios}" is a scenario`);
  return {
    settings: {
      db,
      ...(db === 'sqlite' ? { sqliteSynchronous: synchronous } : {}),
      books,
      duration: values.quick ? 1 : number('duration', 1),
      rounds: values.quick ? 1 : number('rounds', 1),
      warmup: values.quick ? 1 : number('warmup', 0),
      connections: number('connections', 1),
      contenders,
      baseline: values.baseline ?? BASELINES[db],
      scenarios,
      together: values.together,
      profile: values.profile,
      chart: values.chart,
      out: values.out,
    },
    modules,
  };
}
