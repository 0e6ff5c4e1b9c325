import { isIP } from 'node:net';
import path from 'node:path';

const DAY_S = 24 * 60 * 60;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** proxy-addr's names for address ranges, accepted in SVC_TRUST_PROXY beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

export type DatabaseConfig = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

export type SignupPolicy = 'first' | 'open' | 'closed';

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  demo: boolean;
  /**
   * Who may create a workspace with `POST /api/signup`: `first`, only while the server has
   * none (whoever installs it makes theirs, then it closes); `open`, anyone; `closed`, nobody.
   */
  signup: SignupPolicy;
  buildRateLimit: number;
  /** The least wait between two polls of the unread count the server asks for (`X-Poll-Interval`), in seconds. */
  pollFloorSeconds: number;
  /** Whether that wait rises while the server is busy (see http/poll-pace.ts). */
  pollAdaptive: boolean;
  logLevel: LogLevel;
  /** JSON lines, or human-readable ones; `auto`: readable when standard output is a terminal. */
  logFormat: LogFormat;
  /**
   * Which peers are reverse proxies whose X-Forwarded-For/-Proto to believe: a number of hops,
   * or addresses and CIDRs; null: none, the peer's own address is the client's.
   */
  trustProxy: number | string[] | null;
  /** How long a shutdown may take before the process gives up waiting and exits 1. */
  shutdownTimeoutMs: number;
  sessions: SessionPolicy;
  limits: Limits;
  /** When set, GET /metrics asks for it as a bearer token. */
  metricsToken: string | null;
  /** The server's public base URL, for links it hands out (invitations); null: the request's own. */
  publicUrl: string | null;
  /** How many days the audit log keeps an event. */
  auditRetentionDays: number;
  /** How long an invitation link works, and a password reset link. */
  links: { inviteTtlMs: number; passwordResetTtlMs: number };
  /**
   * The keys that encrypt secrets at rest (two-factor seeds): SVC_SECRET_KEY first, then
   * SVC_SECRET_KEY_PREVIOUS (still read, while a rotation re-encrypts). Empty: a key kept in
   * `keyFile`, made on first start (see secrets.ts).
   */
  secretKeys: Buffer[];
  /** Where the key is kept when SVC_SECRET_KEY is not set. */
  keyFile: string;
  /** The DNS servers that check a domain's proof (`address` or `address:port`); empty: the system's. */
  dnsServers: string[];
}

/** When a session ends by itself: unused for `idleMs`, or `lifetimeMs` after sign-in. */
export interface SessionPolicy {
  idleMs: number;
  lifetimeMs: number;
}

/** Throttles and caps; each counted across every server process (see README "Limits"). */
export interface Limits {
  /** Failed sign-ins per client address, per 10 minutes. */
  signInFailuresPerAddress: number;
  /** Failed sign-ins per account (e-mail), per 10 minutes. */
  signInFailuresPerAccount: number;
  /** Successful sign-ins (sessions started) per account, per 10 minutes. */
  signInsPerAccount: number;
  /** Successful sign-ins per client address, per 10 minutes: generous, for an office behind one address. */
  signInsPerAddress: number;
  /** Failed access-link exchanges per client address, per 10 minutes. */
  accessLinkFailuresPerAddress: number;
  /** Sign-ups per client address, per hour. */
  signUpsPerAddress: number;
  commentsPerMinute: number;
  repliesPerMinute: number;
  apiKeysPerHour: number;
  /** Heavy reads per user: insights per minute, searches (a text query) per minute, exports per hour. */
  insightsPerMinute: number;
  searchesPerMinute: number;
  exportsPerHour: number;
  /** Live API keys one user may hold. */
  apiKeysPerUser: number;
  /** Uploads (images, screenshots, pictures of now) per person: how many a minute, and how many megabytes an hour. */
  uploadsPerMinute: number;
  uploadMegabytesPerHour: number;
  /** What a workspace stores of uploads at most, in megabytes, unless the operator set it its own (the admin command). */
  storageQuotaMegabytes: number;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/**
 * Reads the configuration from the environment once, at start-up. Every problem is
 * collected so that one run tells the operator everything that is wrong.
 */
export function loadConfig(env: NodeJS.ProcessEnv): ConfigResult {
  const problems: string[] = [];

  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };

  const boolean = (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.trim().toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['true', '1', 'yes', 'on'].includes(raw)) return true;
    if (['false', '0', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${env[name]}")`);
    return fallback;
  };

  const signup = (): SignupPolicy => {
    const raw = env.SVC_ALLOW_SIGNUP?.trim().toLowerCase();
    if (raw === undefined || raw === '' || raw === 'first') return 'first';
    if (['true', '1', 'yes', 'on'].includes(raw)) return 'open';
    if (['false', '0', 'no', 'off'].includes(raw)) return 'closed';
    problems.push(`SVC_ALLOW_SIGNUP must be first, true or false (got "${env.SVC_ALLOW_SIGNUP}")`);
    return 'first';
  };

  const metricsToken = (): string | null => {
    const token = env.SVC_METRICS_TOKEN?.trim();
    if (!token) return null;
    if (token.length < 16 || !/^[\x21-\x7e]+$/.test(token)) {
      // Never echo it: it is a secret.
      problems.push('SVC_METRICS_TOKEN must be at least 16 printable characters without spaces');
    }
    return token;
  };

  const publicUrl = (): string | null => {
    const raw = env.SVC_PUBLIC_URL?.trim();
    if (!raw) return null;
    try {
      const url = new URL(raw);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash && !url.username) {
        return url.href.replace(/\/+$/, '');
      }
    } catch {
      // Reported below.
    }
    problems.push(`SVC_PUBLIC_URL must be an http(s) URL such as https://feedback.example.com (got "${raw}")`);
    return null;
  };

  const trustProxy = (): number | string[] | null => {
    const raw = env.SVC_TRUST_PROXY?.trim();
    if (!raw) return null;
    if (/^\d+$/.test(raw)) {
      const hops = Number(raw);
      if (hops >= 1 && hops <= 10) return hops;
    } else {
      const entries = raw.split(',').map((entry) => entry.trim());
      const valid = (entry: string) => {
        if (PROXY_RANGE_NAMES.includes(entry)) return true;
        const [address = '', bits, ...rest] = entry.split('/');
        const family = isIP(address);
        if (family === 0 || rest.length > 0) return false;
        return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
      };
      if (entries.every(valid)) return entries;
    }
    problems.push(
      `SVC_TRUST_PROXY must be a number of proxy hops (1-10) or a comma-separated list of addresses and CIDRs such as 10.0.0.0/8,127.0.0.1 (got "${raw}")`,
    );
    return null;
  };

  /** 32 bytes, written as base64 or hex. */
  const secretKeys = (): Buffer[] => {
    const keys: Buffer[] = [];
    for (const name of ['SVC_SECRET_KEY', 'SVC_SECRET_KEY_PREVIOUS']) {
      const raw = env[name]?.trim();
      if (!raw) continue;
      for (const written of raw.split(',').map((part) => part.trim())) {
        const key = /^[\da-f]{64}$/i.test(written) ? Buffer.from(written, 'hex') : Buffer.from(written, 'base64');
        // Never echo it: it is a secret.
        if (key.length === 32) keys.push(key);
        else
          problems.push(
            `${name} must be 32 random bytes written in base64 or hex (make one with: openssl rand -base64 32)`,
          );
      }
    }
    if (keys.length && !env.SVC_SECRET_KEY?.trim()) problems.push('SVC_SECRET_KEY_PREVIOUS needs SVC_SECRET_KEY');
    return keys;
  };

  const dnsServers = (): string[] => {
    const raw = env.SVC_DNS_SERVERS?.trim();
    if (!raw) return [];
    const servers = raw.split(',').map((entry) => entry.trim());
    const valid = (entry: string) => {
      const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
      const [address, port] = bracketed
        ? [bracketed[1] ?? '', bracketed[2]]
        : isIP(entry)
          ? [entry, undefined]
          : [entry.slice(0, entry.lastIndexOf(':')), entry.slice(entry.lastIndexOf(':') + 1)];
      return isIP(address) !== 0 && (port === undefined || (/^\d+$/.test(port) && Number(port) <= 65535));
    };
    if (servers.every(valid)) return servers;
    problems.push(
      `SVC_DNS_SERVERS must be a comma-separated list of DNS server addresses, each with an optional port, such as 10.0.0.2,127.0.0.1:5353 (got "${raw}")`,
    );
    return [];
  };

  const logFormat = (env.SVC_LOG_FORMAT?.trim() || 'auto') as LogFormat;
  if (!LOG_FORMATS.includes(logFormat)) {
    problems.push(`SVC_LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')} (got "${env.SVC_LOG_FORMAT}")`);
  }

  const logLevel = (env.SVC_LOG_LEVEL || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`SVC_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.SVC_LOG_LEVEL}")`);
  }

  const dataDir = path.resolve(env.SVC_DATA_DIR || './data');
  let database: DatabaseConfig = { dialect: 'sqlite', file: path.join(dataDir, 'svc.db') };
  const url = env.DATABASE_URL?.trim();
  if (url) {
    if (/^postgres(ql)?:\/\//.test(url)) {
      database = { dialect: 'postgres', url };
    } else {
      // Never echo the URL: it usually carries a password.
      problems.push('DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for SQLite)');
    }
  }

  const config: Config = {
    port: integer('PORT', 8080, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    database,
    demo: boolean('SVC_DEMO', true),
    signup: signup(),
    buildRateLimit: integer('SVC_BUILD_RATE_LIMIT', 120, 1, 1_000_000),
    pollFloorSeconds: integer('SVC_POLL_FLOOR_SECONDS', 1, 1, 3600),
    pollAdaptive: boolean('SVC_POLL_ADAPTIVE', true),
    logLevel,
    logFormat,
    trustProxy: trustProxy(),
    shutdownTimeoutMs: integer('SVC_SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    metricsToken: metricsToken(),
    publicUrl: publicUrl(),
    auditRetentionDays: integer('SVC_AUDIT_RETENTION_DAYS', 365, 1, 100 * 365),
    secretKeys: secretKeys(),
    keyFile: path.join(dataDir, 'secret.key'),
    dnsServers: dnsServers(),
    links: {
      inviteTtlMs: integer('SVC_INVITE_TTL_HOURS', 7 * 24, 1, 365 * 24) * 3_600_000,
      passwordResetTtlMs: integer('SVC_PASSWORD_RESET_TTL_MINUTES', 24 * 60, 5, 7 * 24 * 60) * 60_000,
    },
    sessions: {
      idleMs: integer('SVC_SESSION_IDLE_SECONDS', 14 * DAY_S, 60, 10 * 365 * DAY_S) * 1000,
      lifetimeMs: integer('SVC_SESSION_MAX_AGE_SECONDS', 90 * DAY_S, 60, 10 * 365 * DAY_S) * 1000,
    },
    limits: {
      signInFailuresPerAddress: integer('SVC_SIGNIN_FAILURES_PER_ADDRESS', 50, 1, 1_000_000),
      signInFailuresPerAccount: integer('SVC_SIGNIN_FAILURES_PER_ACCOUNT', 10, 1, 1_000_000),
      signInsPerAccount: integer('SVC_SIGNINS_PER_ACCOUNT', 30, 1, 1_000_000),
      signInsPerAddress: integer('SVC_SIGNINS_PER_ADDRESS', 1000, 1, 1_000_000),
      accessLinkFailuresPerAddress: integer('SVC_ACCESS_LINK_FAILURES_PER_ADDRESS', 50, 1, 1_000_000),
      signUpsPerAddress: integer('SVC_SIGNUPS_PER_ADDRESS', 10, 1, 1_000_000),
      commentsPerMinute: integer('SVC_COMMENTS_PER_MINUTE', 60, 1, 1_000_000),
      repliesPerMinute: integer('SVC_REPLIES_PER_MINUTE', 60, 1, 1_000_000),
      apiKeysPerHour: integer('SVC_API_KEYS_PER_HOUR', 30, 1, 1_000_000),
      apiKeysPerUser: integer('SVC_API_KEYS_PER_USER', 50, 1, 100_000),
      insightsPerMinute: integer('SVC_INSIGHTS_PER_MINUTE', 30, 1, 1_000_000),
      searchesPerMinute: integer('SVC_SEARCHES_PER_MINUTE', 60, 1, 1_000_000),
      exportsPerHour: integer('SVC_EXPORTS_PER_HOUR', 20, 1, 1_000_000),
      uploadsPerMinute: integer('SVC_UPLOADS_PER_MINUTE', 60, 1, 1_000_000),
      // At least one image of the largest size (2 MB) an hour.
      uploadMegabytesPerHour: integer('SVC_UPLOAD_MB_PER_HOUR', 200, 2, 1_000_000),
      storageQuotaMegabytes: integer('SVC_STORAGE_QUOTA_MB', 5 * 1024, 1, 1_000_000_000),
    },
  };
  return problems.length > 0 ? { ok: false, problems } : { ok: true, config };
}
