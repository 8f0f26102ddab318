const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * The results as a Markdown table, one row per scenario and contender: median requests per
 * second, p99 latency and server CPU per request, the spread of requests per second over the
 * rounds, and the two ratios to the baseline (see lib/stats.mjs).
 */
export function markdownTable(results, baseline) {
  const hasBaseline = results.some((row) => row.contender === baseline);
  const head = [...HEAD];
  if (hasBaseline) head.push('req/s ratio', 'CPU ratio');
  return table(head, results, (row) =>
    hasBaseline ? [`${row.ratio.toFixed(2)}x`, `${row.cpuRatio.toFixed(2)}x`] : [],
  );
}

/**
 * The same table with, instead of the two ratio columns, one column per reference contender
 * holding both ratios to it ("1.20x, 1.15x"), recomputed from every round (bench/table.mjs,
 * docs/performance.md). `ratiosTo(reference)` answers the rows summarized against it.
 */
export function referenceTable(results, references, ratiosTo) {
  const against = references.map((reference) => new Map(ratiosTo(reference).map((row) => [row.contender, row])));
  const head = [...HEAD, ...references.map((reference) => `vs ${reference} (req/s, CPU)`)];
  return table(head, results, (row) =>
    against.map((rows) => {
      const summary = rows.get(row.contender);
      return summary?.ratio === undefined ? '–' : `${summary.ratio.toFixed(2)}x, ${summary.cpuRatio.toFixed(2)}x`;
    }),
  );
}

const HEAD = ['scenario', 'contender', 'req/s', 'p99 (ms)', 'CPU/req (µs)', 'spread'];

function table(head, results, extraCells) {
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`];
  let previous;
  for (const row of results) {
    const cells = [
      row.scenario === previous ? '' : row.title,
      row.contender,
      integer.format(row.rps),
      String(row.p99),
      integer.format(row.cpu),
      `±${Math.round((row.spread * 100) / 2)}%`,
      ...extraCells(row),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
    previous = row.scenario;
  }
  return lines.join('\n');
}

/** What the columns of {@link markdownTable} mean, for the given run settings. */
export function legend({ rounds, duration, baseline, connections }) {
  return [
    `req/s, p99 and CPU/req: medians of ${rounds} round(s) of ${duration} s each (${connections} connections);`,
    `CPU/req is the server process's CPU time (user + system) per request; spread: half the range`,
    `of the rounds' req/s, relative to the median. Ratios compare with ${baseline}, higher is better:`,
    `req/s ratio = contender / baseline, CPU ratio = baseline CPU/req / contender CPU/req, each the`,
    `median of the per-round ratios (each round times every contender back to back).`,
  ].join('\n');
}
