import fs from 'node:fs';
import { prettyFactory } from 'pino-pretty';
import sonicBoom, { type SonicBoom } from 'sonic-boom';

// A CommonJS package: at run time its default export is the class its types name SonicBoom.
const SonicBoomStream = sonicBoom as unknown as typeof SonicBoom;

/** Log lines waiting for a slow reader beyond this are dropped rather than held in memory. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface LogDestination {
  stream: { write(line: string): void };
  /** Writes out what is buffered; resolves when done or after `timeoutMs`, whichever is first. */
  flush(timeoutMs: number): Promise<void>;
}

/**
 * Where the server's log lines go: standard output, written asynchronously; as JSON lines,
 * or (`pretty`) as one readable line each, for a person at a terminal.
 *
 * pino's default destination writes synchronously and, when a pipe is full because its
 * reader stopped reading, retries forever in a sleeping loop on the main thread: a process
 * logging its shutdown to such a pipe never exits, and no timer can end it. Here a full
 * pipe only delays lines (retried on a timer) and, past a bound, drops them; a closed one
 * drops them at once.
 */
export function stdoutLogDestination(pretty: boolean): LogDestination {
  const stream = new SonicBoomStream({ fd: 1, sync: false, maxLength: MAX_BUFFERED_BYTES });
  // SonicBoom's own flush does nothing unless it buffers to a minimum length, so what is still
  // being written is tracked here: 'drain' comes when the last write has landed.
  let pending = false;
  let readerGone = false;
  stream.on('drain', () => {
    pending = false;
  });
  stream.on('error', () => {
    // The reader is gone (EPIPE and the like): logging stops, the server does not.
    readerGone = true;
    pending = false;
  });
  // Formatted in line as each is written, so that ordering and flushing stay the stream's.
  const prettify = pretty
    ? prettyFactory({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' })
    : null;
  return {
    stream: {
      write: (line) => {
        if (readerGone) return;
        pending = true;
        stream.write(prettify ? prettify(line) : line);
      },
    },
    flush: (timeoutMs) =>
      new Promise((resolve) => {
        if (!pending) return resolve();
        const timer = setTimeout(resolve, timeoutMs);
        timer.unref();
        stream.once('drain', () => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

/**
 * A last word on standard error that never blocks the caller: the write runs off the
 * main thread, and the process may exit before it lands.
 */
export function writeStderrWithoutBlocking(text: string, done?: () => void): void {
  fs.write(2, text, () => done?.());
}

/** Query parameters whose value is a secret: an access link's token, and the names people give secrets. */
const SECRET_PARAMETERS = /^(svc_access|access_?token|token|api_?key|key|password|secret|code)$/i;

/** A URL as it may be logged: the values of secret-bearing query parameters masked. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decodeURIComponentSafe(eq < 0 ? pair : pair.slice(0, eq));
      return eq >= 0 && SECRET_PARAMETERS.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** What a request log line says of the request: never headers or bodies; the URL with its secrets masked. */
export function requestForLog(request: {
  method: string;
  url: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.hostname,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
