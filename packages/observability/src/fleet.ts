import type { Redis } from 'ioredis';
import { withTimeout } from '@research/core';
import type { Logger } from './logger';
import { snapshotFleetMetrics, type Metrics, type MetricSnapshot } from './metrics';

/**
 * The fleet's counters live in Redis as running totals that every process adds to: one hash field per
 * sample (a counter's label set, a histogram's bucket, sum or count). A process publishes what it counted
 * since its last publish, so a process that stops or dies leaves its counts in the totals (they never go
 * backwards) and one that restarts starts adding from zero (nothing is counted twice).
 */
function totalsKey(prefix: string): string {
  return `${prefix}:metrics:fleet`;
}

/** The last batch a process added, so a batch sent again after a lost reply is not added twice. */
function sequenceKey(prefix: string, instanceId: string): string {
  return `${prefix}:metrics:seq:${instanceId}`;
}

// Adds one batch of increments unless this process's batch of that sequence number was already added.
// KEYS: totals, sequence; ARGV: sequence number, its time-to-live in ms, then field/increment pairs.
const ADD_BATCH_SCRIPT = `
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
local seq = tonumber(ARGV[1])
if seq > last then
  for i = 3, #ARGV, 2 do
    redis.call('HINCRBYFLOAT', KEYS[1], ARGV[i], ARGV[i + 1])
  end
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
  return 1
end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 0
`;

// Sequence numbers only guard the retry of one batch (seconds); an hour keeps a quiet process's guard.
const SEQUENCE_TTL_MS = 60 * 60 * 1000;

type Sample = MetricSnapshot[number]['values'][number] & { metricName?: string };
type Labels = Record<string, string | number>;

/** One sample's field in the totals hash: its metric, its sample name (a histogram's _bucket, _sum, _count), its labels. */
function fieldOf(metric: string, sample: Sample): string {
  const labels = (sample.labels ?? {}) as Labels;
  const sorted = Object.keys(labels)
    .sort()
    .map((k) => [k, labels[k]]);
  return JSON.stringify([metric, sample.metricName ?? metric, sorted]);
}

function readField(field: string): { metric: string; sample: string; labels: Labels } | null {
  try {
    const [metric, sample, pairs] = JSON.parse(field) as [string, string, Array<[string, string | number]>];
    if (typeof metric !== 'string' || typeof sample !== 'string' || !Array.isArray(pairs)) return null;
    return { metric, sample, labels: Object.fromEntries(pairs) };
  } catch {
    return null;
  }
}

async function sampleValues(metrics: Metrics): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  for (const metric of await snapshotFleetMetrics(metrics)) {
    for (const sample of metric.values as Sample[]) values.set(fieldOf(metric.name, sample), sample.value);
  }
  return values;
}

// Samples of one histogram in the order the exposition format expects: per label set, buckets by `le`,
// then _sum and _count.
function sampleOrder(a: Sample, b: Sample): number {
  const rest = (s: Sample) => {
    const { le: _le, ...labels } = (s.labels ?? {}) as Labels;
    return JSON.stringify(Object.entries(labels).sort());
  };
  const rank = (s: Sample) => (s.metricName?.endsWith('_sum') ? 1 : s.metricName?.endsWith('_count') ? 2 : 0);
  const le = (s: Sample) => {
    const value = (s.labels as Labels | undefined)?.le;
    return value === undefined ? 0 : value === '+Inf' ? Infinity : Number(value);
  };
  return rest(a).localeCompare(rest(b)) || rank(a) - rank(b) || le(a) - le(b);
}

export interface FleetMetrics {
  /**
   * Adds what this process counted since its last publish to the fleet's totals, exactly once. Never
   * throws and never waits long: false when Redis could not be reached in time (the counts stay pending
   * and go with the next publish).
   */
  publish(): Promise<boolean>;
  /** The fleet's totals as a snapshot shaped like this process's registry; throws when Redis cannot be read. */
  read(): Promise<MetricSnapshot>;
  /** Stops the timer and publishes a last time. */
  stop(): Promise<void>;
}

/**
 * Publishes this process's summable metrics to the fleet's totals in Redis every `intervalMs` (and
 * whenever publish() is called: a worker does before it commits a step, so a state a client can see is
 * already counted on every API's /metrics).
 */
export function startFleetMetrics(params: {
  redis: Redis;
  prefix: string;
  instanceId: string;
  metrics: Metrics;
  intervalMs: number;
  logger: Logger;
  /** Longest a publish waits for Redis (default 1 s): a worker publishes inside a transaction. */
  timeoutMs?: number;
}): FleetMetrics {
  const { redis, prefix, instanceId, metrics, logger } = params;
  const timeoutMs = params.timeoutMs ?? 1000;
  const keys = [totalsKey(prefix), sequenceKey(prefix, instanceId)];
  // What the totals hold of this process, and the batch sent but not acknowledged yet (resent as it is).
  let published = new Map<string, number>();
  let sequence = 0;
  let pending: { sequence: number; increments: Map<string, number>; values: Map<string, number> } | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  async function sendPending(): Promise<void> {
    const batch = pending!;
    const args: Array<string | number> = [batch.sequence, SEQUENCE_TTL_MS];
    for (const [field, increment] of batch.increments) args.push(field, String(increment));
    await redis.eval(ADD_BATCH_SCRIPT, keys.length, ...keys, ...args);
    published = batch.values;
    pending = undefined;
  }

  async function publishNow(): Promise<void> {
    // A batch whose reply was lost goes first, unchanged: its sequence number makes a second add a no-op.
    if (pending) await sendPending();
    const values = await sampleValues(metrics);
    const increments = new Map<string, number>();
    for (const [field, value] of values) {
      const increment = value - (published.get(field) ?? 0);
      if (increment > 0) increments.set(field, increment);
    }
    if (increments.size === 0) return;
    pending = { sequence: ++sequence, increments, values };
    await sendPending();
  }

  function publish(): Promise<boolean> {
    // One publish at a time: batches must reach Redis in sequence order.
    const run = queue.then(publishNow);
    queue = run.catch(() => undefined);
    return withTimeout(run, timeoutMs, 'metrics publish').then(
      () => true,
      (error: unknown) => {
        logger.debug('metrics publish failed', { error });
        return false;
      },
    );
  }

  const timer = setInterval(() => void publish(), params.intervalMs);
  timer.unref();
  void publish();

  return {
    publish,
    async read() {
      const [template, totals] = await Promise.all([snapshotFleetMetrics(metrics), redis.hgetall(keys[0]!)]);
      const byMetric = new Map<string, Map<string, Sample>>();
      for (const [field, text] of Object.entries(totals)) {
        const parsed = readField(field);
        const value = Number(text);
        // A foreign or torn field is skipped, never fatal to a scrape.
        if (!parsed || !Number.isFinite(value)) continue;
        const sample: Sample = { value, labels: parsed.labels };
        if (parsed.sample !== parsed.metric) sample.metricName = parsed.sample;
        if (!byMetric.has(parsed.metric)) byMetric.set(parsed.metric, new Map());
        byMetric.get(parsed.metric)!.set(field, sample);
      }
      // This process's registry gives every metric's type and help, and a zero for each sample it knows.
      return template.map((metric) => {
        const fleet = byMetric.get(metric.name) ?? new Map<string, Sample>();
        const values = new Map<string, Sample>();
        for (const sample of metric.values as Sample[])
          values.set(fieldOf(metric.name, sample), { ...sample, value: 0 });
        for (const [field, sample] of fleet) values.set(field, sample);
        return { ...metric, values: [...values.values()].sort(sampleOrder) };
      }) as MetricSnapshot;
    },
    async stop() {
      clearInterval(timer);
      await publish();
    },
  };
}
