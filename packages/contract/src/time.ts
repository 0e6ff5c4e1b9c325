const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "5 minutes ago", "just now", "in 2 days": how the browser apps show a timestamp. */
export function relativeTimeText(iso: string, now = Date.now()): string {
  let value = (Date.parse(iso) - now) / 1000;
  let unit: Intl.RelativeTimeFormatUnit = 'second';
  for (const [name, size] of STEPS) {
    unit = name;
    if (Math.abs(value) < size) break;
    value /= size;
  }
  return unit === 'second' && Math.abs(value) < 45 ? 'just now' : relative.format(Math.round(value), unit);
}
