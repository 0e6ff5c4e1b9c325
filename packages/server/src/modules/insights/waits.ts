// Waits as insights hold them: counted in buckets 5 % wide (as migration 0018's triggers file
// them), each with its count, sum, least and greatest wait, so that a year's median is read from
// a few thousand rows rather than from every event. A percentile is the nearest rank's bucket,
// placed in it by its rank between the bucket's least and greatest wait: exact while a bucket
// holds one or two distinct waits, and never further off than the bucket is wide.

/** A bucket's width: each holds waits up to 5 % apart. */
const RATIO = 1.05;

/** The bucket of a wait in milliseconds, as the database files it (0: under a second). */
export const bucketOf = (ms: number) => (ms < 1000 ? 0 : 1 + Math.floor(Math.log(ms / 1000) / Math.log(RATIO)));

export interface Bucket {
  n: number;
  sum: number;
  min: number | null;
  max: number | null;
}

/** Waits of one kind and whose fix, by bucket. */
export type Histogram = Map<number, Bucket>;

/** Adds `more` (a bucket's worth of waits) to `histogram`'s bucket `at`. */
export function addTo(histogram: Histogram, at: number, more: Bucket) {
  const bucket = histogram.get(at);
  if (!bucket) {
    histogram.set(at, { ...more });
    return;
  }
  bucket.n += more.n;
  bucket.sum += more.sum;
  bucket.min = bucket.min === null ? more.min : more.min === null ? bucket.min : Math.min(bucket.min, more.min);
  bucket.max = bucket.max === null ? more.max : more.max === null ? bucket.max : Math.max(bucket.max, more.max);
}

export interface Spread {
  count: number;
  median: number | null;
  p90: number | null;
}

/** The wait of rank `k` (1-based) of a bucket's `n`: its least, its greatest, or between by rank. */
function within(bucket: Bucket, k: number): number {
  const mean = bucket.sum / bucket.n;
  const min = bucket.min ?? mean;
  const max = bucket.max ?? mean;
  if (bucket.n === 1) return bucket.min ?? mean;
  return Math.round(min + ((max - min) * (k - 1)) / (bucket.n - 1));
}

/** The count, median and 90th percentile (nearest rank) of the waits of `histograms` together. */
export function spreadOf(histograms: readonly Histogram[]): Spread {
  const merged: Histogram = new Map();
  for (const histogram of histograms) for (const [at, bucket] of histogram) addTo(merged, at, bucket);
  const buckets = [...merged].filter(([, bucket]) => bucket.n > 0).sort(([a], [b]) => a - b);
  const count = buckets.reduce((sum, [, bucket]) => sum + bucket.n, 0);
  const rank = (p: number) => {
    if (count === 0) return null;
    const wanted = Math.ceil(count * p);
    let before = 0;
    for (const [, bucket] of buckets) {
      if (before + bucket.n >= wanted) return within(bucket, wanted - before);
      before += bucket.n;
    }
    return null;
  };
  return { count, median: rank(0.5), p90: rank(0.9) };
}
