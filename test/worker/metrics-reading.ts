import type { Metrics, MetricSnapshot } from '@research/observability';

/** Sum of a counter's (or a histogram's `_count`) values in a registry snapshot. */
export function snapshotValue(snapshot: MetricSnapshot, name: string): number {
  const metric = snapshot.find((m) => m.name === name || `${m.name}_count` === name);
  if (!metric) return 0;
  const values = metric.values as Array<{ value: number; metricName?: string }>;
  if (metric.type === ('histogram' as never) || name.endsWith('_count')) {
    return values.filter((v) => v.metricName === `${metric.name}_count`).reduce((sum, v) => sum + v.value, 0);
  }
  return values.reduce((sum, v) => sum + v.value, 0);
}

export async function metricValue(metrics: Metrics, name: string): Promise<number> {
  return snapshotValue((await metrics.fleetRegistry.getMetricsAsJSON()) as MetricSnapshot, name);
}

/** The value of an unlabelled sample in Prometheus text (or the sum of its labelled samples). */
export function promValue(text: string, name: string): number {
  let sum = 0;
  let found = false;
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})?\\s+([0-9.eE+-]+)$`).exec(line);
    if (match) {
      sum += Number(match[1]);
      found = true;
    }
  }
  return found ? sum : NaN;
}
