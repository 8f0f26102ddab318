// The results as an SVG bar chart: one group per scenario, one bar per contender, the bar's length
// its req/s ratio to the baseline (log scale, so 0.1x and 10x are as far from 1x), the median
// req/s written beside it. run.mjs writes it to bench/results/chart.svg and docs/performance-chart.svg;
// `node bench/lib/chart.mjs [results.json] [out.svg]` redraws it from a saved run.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];
const xml = (text) => String(text).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** The SVG text for a results report (the JSON run.mjs saves). */
export function chartSvg(report) {
  const baseline = report.settings.baseline;
  const contenders = [...new Set(report.results.map((row) => row.contender))];
  const scenarios = report.scenarios.filter(({ name }) => report.results.some((row) => row.scenario === name));
  const ratios = report.results.map((row) => row.ratio ?? 1);
  const low = Math.min(0.1, ...ratios) * 0.9;
  const high = Math.max(10, ...ratios) * 1.1;
  const left = 190;
  const width = 900;
  const plot = width - left - 110;
  const bar = 14;
  const groupGap = 18;
  const top = 56;
  const x = (ratio) => left + (plot * Math.log(ratio / low)) / Math.log(high / low);
  const groupHeight = contenders.length * bar + groupGap;
  const height = top + scenarios.length * groupHeight + 40 + Math.ceil(contenders.length / 4) * 18;
  const out = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<title>${xml(`Benchmark: req/s of each contender relative to ${baseline}, per scenario`)}</title>`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2}" y="18" text-anchor="middle" font-size="14" font-weight="bold">${xml(
      `req/s relative to ${baseline} (log scale; ${report.settings.books} books, ${report.machine.cpus} CPUs, Node ${report.machine.node})`,
    )}</text>`,
  );
  for (const tick of [0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 100]) {
    if (tick < low || tick > high) continue;
    const at = x(tick).toFixed(1);
    out.push(
      `<line x1="${at}" y1="${top - 8}" x2="${at}" y2="${top + scenarios.length * groupHeight - groupGap}" stroke="${tick === 1 ? '#333' : '#ddd'}"/>`,
      `<text x="${at}" y="${top - 12}" text-anchor="middle" fill="#555">${tick}x</text>`,
    );
  }
  scenarios.forEach((scenario, s) => {
    const y0 = top + s * groupHeight;
    out.push(
      `<text x="8" y="${y0 + (contenders.length * bar) / 2 + 4}" font-weight="bold">${xml(scenario.title)}</text>`,
    );
    contenders.forEach((contender, c) => {
      const row = report.results.find((entry) => entry.scenario === scenario.name && entry.contender === contender);
      if (!row) return;
      const y = y0 + c * bar;
      const end = x(row.ratio ?? 1);
      const start = x(low);
      out.push(
        `<rect x="${start.toFixed(1)}" y="${y + 1}" width="${Math.max(1, end - start).toFixed(1)}" height="${bar - 2}" fill="${COLORS[c % COLORS.length]}"><title>${xml(
          `${contender}: ${integer.format(row.rps)} req/s, p99 ${row.p99} ms, ${(row.ratio ?? 1).toFixed(2)}x`,
        )}</title></rect>`,
        `<text x="${(end + 4).toFixed(1)}" y="${y + bar - 3}" fill="#333">${(row.ratio ?? 1).toFixed(2)}x · ${integer.format(row.rps)}/s</text>`,
      );
    });
  });
  const legendTop = top + scenarios.length * groupHeight + 10;
  contenders.forEach((contender, c) => {
    const lx = 8 + (c % 4) * 220;
    const ly = legendTop + Math.floor(c / 4) * 18;
    out.push(
      `<rect x="${lx}" y="${ly}" width="12" height="12" fill="${COLORS[c % COLORS.length]}"/>`,
      `<text x="${lx + 16}" y="${ly + 10}">${xml(contender)}</text>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const input = process.argv[2] ?? new URL('../results/latest.json', import.meta.url);
  const output = process.argv[3] ?? new URL('../../docs/performance-chart.svg', import.meta.url);
  writeFileSync(output, chartSvg(JSON.parse(readFileSync(input, 'utf8'))));
}
