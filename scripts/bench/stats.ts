/** Latency percentiles and throughput of a sequential loop. */
export interface Figures {
  count: number;
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  /** CPU time of the whole process per run (ms): less sensitive than wall time to other work on a shared machine. */
  cpuPerRun: number;
}

export async function measure(run: () => Promise<unknown>, { warmup = 50, count = 500 } = {}): Promise<Figures> {
  for (let i = 0; i < warmup; i++) await run();
  const times: number[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  const total = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { count, perSecond: (count / total) * 1000, p50: at(0.5), p90: at(0.9), p99: at(0.99), cpuPerRun: (user + system) / 1000 / count };
}

/**
 * Measures `a` against `b` fairly: both warmed up first, then `rounds` alternating runs of each, so neither pays for
 * going first (JIT warm-up, GC debt, the machine's load moving). Each side's figures are those of its median round
 * (by p50); `ratio` is the median of the rounds' throughput ratios a / b.
 */
export async function compare(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  { warmup = 500, count = 300, rounds = 5 } = {},
): Promise<{ a: Figures; b: Figures; ratio: number }> {
  for (let i = 0; i < warmup; i++) (await a(), await b());
  const runs: { a: Figures; b: Figures }[] = [];
  for (let round = 0; round < rounds; round++) {
    const first = round % 2 === 0;
    const x = await measure(first ? a : b, { warmup: 0, count });
    const y = await measure(first ? b : a, { warmup: 0, count });
    runs.push(first ? { a: x, b: y } : { a: y, b: x });
  }
  const median = <T>(items: T[], by: (item: T) => number) => [...items].sort((p, q) => by(p) - by(q))[Math.floor(items.length / 2)]!;
  return {
    a: median(
      runs.map((r) => r.a),
      (f) => f.p50,
    ),
    b: median(
      runs.map((r) => r.b),
      (f) => f.p50,
    ),
    ratio: median(
      runs.map((r) => r.a.perSecond / r.b.perSecond),
      (x) => x,
    ),
  };
}

export const describeFigures = (label: string, f: Figures) =>
  `${label.padEnd(44)} ${f.perSecond.toFixed(0).padStart(6)}/s   p50 ${f.p50.toFixed(2)} ms   p90 ${f.p90.toFixed(2)} ms   p99 ${f.p99.toFixed(2)} ms`;
