const formats = new Map<string, Intl.RelativeTimeFormat>();
const relative = (locale: string | undefined) => {
  const key = locale ?? '';
  const known = formats.get(key);
  if (known) return known;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  formats.set(key, format);
  return format;
};
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "5 minutes ago", "now", "in 2 days": how the browser apps show a timestamp, in `locale` (the browser's by default). */
export function relativeTimeText(iso: string, now = Date.now(), locale?: string): string {
  let value = (Date.parse(iso) - now) / 1000;
  let unit: Intl.RelativeTimeFormatUnit = 'second';
  for (const [name, size] of STEPS) {
    unit = name;
    if (Math.abs(value) < size) break;
    value /= size;
  }
  return relative(locale).format(unit === 'second' && Math.abs(value) < 45 ? 0 : Math.round(value), unit);
}
