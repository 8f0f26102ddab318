const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * The results as a Markdown table, one row per scenario and contender: median requests per
 * second, p99 latency, server CPU per request (and the database server's, when measured), the
 * spread of requests per second over the rounds, and the two ratios to the scenario's baseline
 * (see lib/stats.mjs; `–` where there is none).
 */
export function markdownTable(results) {
  const hasBaseline = results.some((row) => row.ratio !== undefined);
  const head = headOf(results);
  if (hasBaseline) head.push('req/s ratio', 'CPU ratio');
  return table(head, results, (row) => {
    if (!hasBaseline) return [];
    return row.ratio === undefined ? ['–', '–'] : [`${row.ratio.toFixed(2)}x`, `${row.cpuRatio.toFixed(2)}x`];
  });
}

/**
 * The same table with, instead of the two ratio columns, one column per reference contender
 * holding both ratios to it ("1.20x, 1.15x"), recomputed from every round (bench/table.mjs,
 * docs/performance.md). `ratiosTo(reference)` answers the rows summarized against it.
 */
export function referenceTable(results, references, ratiosTo) {
  const against = references.map((reference) => new Map(ratiosTo(reference).map((row) => [row.contender, row])));
  const head = [...headOf(results), ...references.map((reference) => `vs ${reference} (req/s, CPU)`)];
  return table(head, results, (row) =>
    against.map((rows) => {
      const summary = rows.get(row.contender);
      return summary?.ratio === undefined ? '–' : `${summary.ratio.toFixed(2)}x, ${summary.cpuRatio.toFixed(2)}x`;
    }),
  );
}

const hasDbCpu = (results) => results.some((row) => row.dbCpu !== undefined);

function headOf(results) {
  const cpu = hasDbCpu(results) ? ['CPU/req (µs)', 'DB CPU/req (µs)'] : ['CPU/req (µs)'];
  return ['scenario', 'contender', 'req/s', 'p99 (ms)', ...cpu, 'spread'];
}

function table(head, results, extraCells) {
  const withDb = hasDbCpu(results);
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`];
  let previous;
  for (const row of results) {
    const cells = [
      row.scenario === previous ? '' : row.title,
      row.contender,
      integer.format(row.rps),
      String(row.p99),
      integer.format(row.cpu),
      ...(withDb ? [row.dbCpu === undefined ? '–' : integer.format(row.dbCpu)] : []),
      `±${Math.round((row.spread * 100) / 2)}%`,
      ...extraCells(row),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
    previous = row.scenario;
  }
  return lines.join('\n');
}

/**
 * What the columns of {@link markdownTable} mean, for the given run settings; `exceptions` lists
 * the scenarios compared with another baseline than the run's (`[{ title, baseline }]`).
 */
export function legend(
  { rounds, duration, baseline, connections, db = 'memory', sqliteSynchronous, together = false },
  exceptions = [],
) {
  const lines = [
    `req/s, p99 and CPU/req: medians of ${rounds} round(s) of ${duration} s each (${connections} connections);`,
    `CPU/req is the server process's CPU time (user + system) per request; spread: half the range`,
    `of the rounds' req/s, relative to the median. Ratios compare with ${baseline}, higher is better:`,
    `req/s ratio = contender / baseline, CPU ratio = baseline CPU/req / contender CPU/req, each the`,
    together
      ? `median of the per-round ratios (each round loads every contender at the same moment: their`
      : `median of the per-round ratios (each round times every contender back to back).`,
  ];
  if (together) lines.push(`req/s are each one's share of the machine, CPU/req is what compares).`);
  if (db === 'postgres') {
    lines.push(
      `DB CPU/req: the PostgreSQL server processes' CPU time per request (the contender's own database's`,
      `backends, plus the WAL writer, checkpointer...); the CPU ratio compares server + database CPU.`,
    );
  }
  if (db === 'sqlite') {
    lines.push('SQLite runs inside the server process: its CPU time is in CPU/req.');
    lines.push(`Every contender's SQLite file: WAL, synchronous=${(sqliteSynchronous ?? 'full').toUpperCase()}.`);
  }
  for (const { title, baseline: own } of exceptions) lines.push(`"${title}" compares with ${own} instead.`);
  return lines.join('\n');
}
