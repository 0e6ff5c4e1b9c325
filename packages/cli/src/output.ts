/** Data goes to stdout; everything meant for a person reading along goes to stderr. */
export function printData(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function warn(message: string): void {
  process.stderr.write(`svc-cli: warning: ${message}\n`);
}

export function info(message: string): void {
  process.stderr.write(`${message}\n`);
}
