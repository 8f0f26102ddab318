/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** CPU per request of one round: the server's, plus the database server's when it was measured. */
const totalCpu = (entry) => entry.cpu + (entry.dbCpu ?? 0);

/**
 * One scenario's rounds (`Map<contender, [{ rps, p99, cpu, dbCpu?, ... }]>`, round `i` of every
 * contender timed back to back) reduced to one row per contender: medians of requests per
 * second, p99, server CPU per request and (PostgreSQL) database CPU per request; the spread of
 * requests per second ((max - min) / median); and two ratios to the baseline, both "higher is
 * better": `ratio` of requests per second and `cpuRatio`, the baseline's CPU per request over the
 * contender's (server plus database, where the database's is measured). Ratios are medians of
 * the per-round ratios: both runs of a round share the machine's load of that moment, so a noisy
 * neighbour slows both rather than one.
 */
export function summarizeRounds(rounds, baseline) {
  const base = rounds.get(baseline);
  const perRound = (list, ratio) => (base ? median(list.map((entry, round) => ratio(entry, base[round]))) : undefined);
  return [...rounds].map(([contender, list]) => {
    const rps = list.map((entry) => entry.rps);
    const middle = median(rps);
    return {
      contender,
      rps: middle,
      p99: median(list.map((entry) => entry.p99)),
      cpu: median(list.map((entry) => entry.cpu)),
      ...(list[0].dbCpu === undefined ? {} : { dbCpu: median(list.map((entry) => entry.dbCpu)) }),
      spread: (Math.max(...rps) - Math.min(...rps)) / middle,
      ratio: perRound(list, (entry, reference) => entry.rps / reference.rps),
      cpuRatio: perRound(list, (entry, reference) => totalCpu(reference) / totalCpu(entry)),
      rounds: list,
    };
  });
}
