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
}

type Value = { value: number; labels: Record<string, string | number>; metricName?: string };

/**
 * Request counts and durations per route, recorded into plain arrays and turned into
 * Prometheus series only when scraped. prom-client's labelled metrics validate and hash
 * their labels on every observation, a visible cost on the polled unread-count.
 */
export class RouteMetrics {
  private readonly series: RouteSeries[] = [];

  constructor(registry: client.Registry) {
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
    registry.registerMetric(counter as unknown as client.Metric);
    registry.registerMetric(histogram as unknown as client.Metric);
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

  /** A recorder for one route, made once when the route is registered. */
  forRoute(method: string, route: string): (status: number, seconds: number) => void {
    const s: RouteSeries = {
      method,
      route,
      byStatus: new Map(),
      buckets: new Float64Array(BUCKETS.length + 1),
      sum: 0,
      count: 0,
    };
    this.series.push(s);
    return (status, seconds) => {
      s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
      let i = 0;
      while (i < BUCKETS.length && seconds > (BUCKETS[i] as number)) i++;
      s.buckets[i] = (s.buckets[i] ?? 0) + 1;
      s.sum += seconds;
      s.count++;
    };
  }
}
