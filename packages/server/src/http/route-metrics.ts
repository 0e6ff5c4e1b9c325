import type client from 'prom-client';

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface RouteSeries {
  method: string;
  route: string;
  byStatus: Map<number, number>;
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  buckets: Float64Array;
  sum: number;
  count: number;
  /** Of `count`, those answered before routing (see FastPath). */
  fromMemory: number;
}

export type RouteRecorder = (status: number, seconds: number, fromMemory?: boolean) => void;

type Value = { value: number; labels: Record<string, string | number>; metricName?: string };

/**
 * Request counts and durations per route, recorded into plain arrays and turned into
 * Prometheus series only when scraped. prom-client's labelled metrics validate and hash
 * their labels on every observation, a visible cost on the polled unread-count.
 */
export class RouteMetrics {
  private readonly series: RouteSeries[] = [];
  private readonly recorders = new Map<string, RouteRecorder>();

  /** Adds the series to `registry`, read from here at each scrape. */
  collectInto(registry: client.Registry): void {
    const counter = {
      name: 'svc_http_requests_total',
      help: 'HTTP requests answered, by route and status',
      get: async () => ({
        name: counter.name,
        help: counter.help,
        type: 'counter',
        aggregator: 'sum',
        values: this.series.flatMap((s) =>
          [...s.byStatus].map(([status, value]) => ({ value, labels: { method: s.method, route: s.route, status } })),
        ),
      }),
    };
    const histogram = {
      name: 'svc_http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by route',
      get: async () => ({
        name: histogram.name,
        help: histogram.help,
        type: 'histogram',
        aggregator: 'sum',
        values: this.series.flatMap((s) => this.histogramValues(histogram.name, s)),
      }),
    };
    const fromMemory = {
      name: 'svc_http_requests_answered_from_memory_total',
      help: 'Of those requests, the ones answered from memory before routing',
      get: async () => ({
        name: fromMemory.name,
        help: fromMemory.help,
        type: 'counter',
        aggregator: 'sum',
        values: this.series
          .filter((s) => s.fromMemory > 0)
          .map((s) => ({ value: s.fromMemory, labels: { method: s.method, route: s.route } })),
      }),
    };
    for (const metric of [counter, histogram, fromMemory]) registry.registerMetric(metric as unknown as client.Metric);
  }

  private histogramValues(name: string, s: RouteSeries): Value[] {
    const labels = { method: s.method, route: s.route };
    const values: Value[] = [];
    let cumulative = 0;
    BUCKETS.forEach((le, i) => {
      cumulative += s.buckets[i] ?? 0;
      values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative });
    });
    values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: s.count });
    values.push({ metricName: `${name}_sum`, labels, value: s.sum });
    values.push({ metricName: `${name}_count`, labels, value: s.count });
    return values;
  }

  /** The recorder of one route, made when the route is registered; the same one when asked again. */
  forRoute(method: string, route: string): RouteRecorder {
    const key = `${method} ${route}`;
    const known = this.recorders.get(key);
    if (known) return known;
    const s: RouteSeries = {
      method,
      route,
      byStatus: new Map(),
      buckets: new Float64Array(BUCKETS.length + 1),
      sum: 0,
      count: 0,
      fromMemory: 0,
    };
    this.series.push(s);
    const record: RouteRecorder = (status, seconds, fromMemory = false) => {
      s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
      let i = 0;
      while (i < BUCKETS.length && seconds > (BUCKETS[i] as number)) i++;
      s.buckets[i] = (s.buckets[i] ?? 0) + 1;
      s.sum += seconds;
      s.count++;
      if (fromMemory) s.fromMemory++;
    };
    this.recorders.set(key, record);
    return record;
  }
}
