// The tables of docs/performance.md from a saved run: every contender's medians with both ratios
// to each reference (each the median of the per-round ratios, as in the run's own table). Usage:
//   node bench/table.mjs <results.json> [--against express-by-hand,feathers] [--only a,b]
// (default references of a `--db postgres|sqlite` run: express-sql,feathers-knex,nest-typeorm).
// In a scenario with a baseline of its own (count=false), the run's baseline column holds the
// ratios to that one.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { referenceTable } from './lib/report.mjs';
import { summarizeRounds } from './lib/stats.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { against: { type: 'string' }, only: { type: 'string' } },
});
if (positionals.length !== 1) {
  console.error('usage: node bench/table.mjs <results.json> [--against a,b] [--only a,b]');
  process.exit(2);
}
const run = JSON.parse(readFileSync(positionals[0], 'utf8'));
const only = values.only?.split(',');
const sql = (run.settings.db ?? 'memory') !== 'memory';
const against = (values.against ?? (sql ? 'express-sql,feathers-knex,nest-typeorm' : 'express-by-hand,feathers')).split(
  ',',
);
const rows = run.results.filter((row) => !only || only.includes(row.contender));
const notes = [];
const tables = run.settings.scenarios.map((scenario) => {
  const results = rows.filter((row) => row.scenario === scenario);
  const rounds = new Map(results.map((row) => [row.contender, row.rounds]));
  const own = run.scenarios.find(({ name }) => name === scenario)?.baseline;
  const replaced = own && own !== run.settings.baseline && rounds.has(own);
  if (replaced) notes.push(`${results[0]?.title}: the vs ${run.settings.baseline} column compares with ${own}.`);
  return referenceTable(results, against, (reference) =>
    summarizeRounds(rounds, replaced && reference === run.settings.baseline ? own : reference),
  );
});
// One table: the scenarios' header and separator lines are kept once.
console.log([tables[0], ...tables.slice(1).map((text) => text.split('\n').slice(2).join('\n'))].join('\n'));
if (notes.length > 0) console.log(`\n${notes.join('\n')}`);
