// The tables of docs/performance.md from a saved run: every contender's medians with both ratios
// to each reference (each the median of the per-round ratios, as in the run's own table). Usage:
//   node bench/table.mjs <results.json> [--against express-by-hand,feathers] [--only a,b]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { referenceTable } from './lib/report.mjs';
import { summarizeRounds } from './lib/stats.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { against: { type: 'string', default: 'express-by-hand,feathers' }, only: { type: 'string' } },
});
if (positionals.length !== 1) {
  console.error('usage: node bench/table.mjs <results.json> [--against a,b] [--only a,b]');
  process.exit(2);
}
const run = JSON.parse(readFileSync(positionals[0], 'utf8'));
const only = values.only?.split(',');
const rows = run.results.filter((row) => !only || only.includes(row.contender));
const tables = run.settings.scenarios.map((scenario) => {
  const results = rows.filter((row) => row.scenario === scenario);
  const rounds = new Map(results.map((row) => [row.contender, row.rounds]));
  return referenceTable(results, values.against.split(','), (reference) => summarizeRounds(rounds, reference));
});
// One table: the scenarios' header and separator lines are kept once.
console.log([tables[0], ...tables.slice(1).map((text) => text.split('\n').slice(2).join('\n'))].join('\n'));
