// Every setting the server reads from its environment, checked once at start-up. A bad value stops
// the server before it listens, with one line naming the setting and what it accepts: a setting
// that is only discovered to be wrong when a request needs it turns into a 500 for every reviewer.
import { DEFAULT_MAX_TENANTS } from '../../mock/app';
import { type AuditConfig, auditConfigFromEnv } from '../audit/config';
import { DEFAULT_MAX_BODY_BYTES } from '../http/body-limit';
import { normalizeBasePath } from '../http/portal';
import { redactUrl } from '../lib/redact-url';
import { type NotifySettings, WHSEC } from '../notify/config';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  parseUpstreamUrl,
  type Upstream,
} from '../proxy/proxy';
import { DEFAULT_TEAM_CONFIG, type TeamConfig } from '../team/types';

export const DEFAULT_PORT = 5173;

/**
 * Every variable the server reads, and the only ones: the reader below takes no other name, and
 * the docs test checks each has its row in docs/configuration.md.
 */
export const SETTING_NAMES = [
  'PORT',
  'HOST',
  'BASE_PATH',
  'MAX_BODY_BYTES',
  'MAX_RESPONSE_BYTES',
  'UPSTREAM_TIMEOUT_MS',
  'FRAME_ANCESTORS',
  'SOURCE_MAPS',
  'FIRST_SCREEN',
  'CONFIG_FILE',
  'ALLOWED_HOSTS',
  'REFLEXIO_URL',
  'REFLEXIO_API_KEY',
  'VERTESIA_URL',
  'VERTESIA_API_KEY',
  'BILBY_URL',
  'BILBY_API_KEY',
  'BILBY_ORGANIZATION_ID',
  'MOCK_API_KEY',
  'MOCK_MAX_TENANTS',
  'MOCK_SEED',
  'MOCK_SIMULATOR_SECONDS',
  'MOCK_LATENCY_MS',
  'CLAIM_MINUTES',
  'MAX_CLAIMS',
  'PRESENCE_TTL_SECONDS',
  'MAX_EVENT_STREAMS',
  'MAX_PRESENCE_PER_SECOND',
  'INSIGHTS_PER_REVIEWER',
  'WATCH_INTERVAL_SECONDS',
  'METRICS_TOKEN',
  'NOTIFY_CONFIG',
  'NOTIFY_WEBHOOK_URL',
  'NOTIFY_WEBHOOK_SECRET',
  'SMTP_URL',
  'NOTIFY_EMAIL_TO',
  'PUBLIC_URL',
] as const;

type SettingName = (typeof SETTING_NAMES)[number];
type System = 'REFLEXIO' | 'VERTESIA' | 'BILBY';
const MIB = 1_048_576;

export interface Settings {
  port: number;
  host: string;
  basePath: string;
  maxBodyBytes: number;
  frameAncestors: string | undefined;
  sourceMaps: boolean;
  /** The first screen rendered on the server (docs/server-rendering.md); off: a browser asks with a cookie. */
  firstScreen: boolean;
  allowedHosts: string[];
  reflexio: Upstream | undefined;
  vertesia: Upstream | undefined;
  bilby: Upstream | undefined;
  bilbyOrganizationId: string | undefined;
  /** Who the reviewer is and where the trail is kept (audit-config.ts reads those variables). */
  audit: AuditConfig;
  /** Presence and claims (server/team/sql.ts). */
  team: TeamConfig;
  /** The Insights page (server/insights/): whether it shows actions per reviewer. */
  insights: { perReviewer: boolean };
  mock: {
    apiKey: string | null;
    maxTenants: number;
    seed: 'demo' | 'empty';
    simulatorIntervalMs: number;
    latencyMs: number;
  };
  /** The watcher (server/watch/): how often it reads each system. */
  watch: { intervalMs: number };
  /** METRICS_TOKEN: `/metrics` asks for it as a bearer token; without it, the identity rules. */
  metricsToken: string | null;
  /** Notifications (server/notify/): where the routes file is, and the two-variable setups. */
  notify: NotifySettings;
}

export type SettingsResult = { ok: true; settings: Settings } | { ok: false; problems: string[] };

type Env = Record<string, string | undefined>;

/** A value as it can be printed in a one-line message: no control characters, not too long. */
function shown(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
  const escaped = JSON.stringify(value).replace(/[\u0000-\u001f\u007f]/g, '?');
  return escaped.length > 80 ? `${escaped.slice(0, 77)}…"` : escaped;
}

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  raw(name: SettingName): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value;
  }

  problem(name: SettingName, accepts: string, value: string): void {
    this.problems.push(`${name} must be ${accepts}, not ${shown(value)}.`);
  }

  integer(name: SettingName, fallback: number, min: number, max: number, unit = ''): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      const range = `${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
      this.problem(name, `a whole number from ${range}${unit}`, value);
      return fallback;
    }
    return parsed;
  }

  number(name: SettingName, fallback: number, min: number, max: number, unit: string): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isFinite(parsed) || parsed < min || parsed > max) {
      this.problem(name, `a number from ${min} to ${max}${unit}`, value);
      return fallback;
    }
    return parsed;
  }

  oneOf<T extends string>(name: SettingName, choices: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if ((choices as readonly string[]).includes(value.trim())) return value.trim() as T;
    this.problem(name, `one of ${choices.join(', ')}`, value);
    return fallback;
  }

  /** A key sent in a header: visible ASCII, no spaces (a line break would break every request). */
  secret(name: SettingName): string | undefined {
    const value = this.env[name];
    if (!value) return undefined;
    if (!/^[\x21-\x7e]+$/.test(value)) {
      this.problems.push(
        `${name} must be visible ASCII characters without spaces or line breaks (its value is not shown).`,
      );
      return undefined;
    }
    return value;
  }

  upstream(system: System, timeoutMs: number, maxResponseBytes: number): Upstream | undefined {
    const value = this.raw(`${system}_URL`);
    if (value === undefined) return undefined;
    const parsed = parseUpstreamUrl(value.trim(), `${system}_URL`);
    if (!parsed.ok) {
      this.problems.push(parsed.message);
      return undefined;
    }
    return {
      url: parsed.url.href,
      apiKey: this.secret(`${system}_API_KEY`),
      timeoutMs,
      maxResponseBytes,
    };
  }
}

const HOST_NAME =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV6 = /^\[[0-9A-Fa-f:.]+\]$/;
const PATH_SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function validHostPort(value: string): boolean {
  const match = /^(.*?)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return false;
  const [, name = '', port] = match;
  if (port !== undefined && Number(port) > 65535) return false;
  return HOST_NAME.test(name) || IPV6.test(name);
}

/** A sub-path made only of plain segments: never `//host` (off-site) nor `..`. */
function validBasePath(path: string): boolean {
  if (path === '/') return true;
  const inner = path.slice(1, -1);
  return inner.split('/').every((segment) => PATH_SEGMENT.test(segment) && !/^\.+$/.test(segment));
}

const CSP_SOURCE =
  /^(?:'self'|'none'|[a-z][a-z0-9+.-]*:|(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*|(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)(?::(?:\d{1,5}|\*))?(?:\/[A-Za-z0-9._~!$&()*+=:@%/-]*)?)$/;

/** `frame-ancestors` sources: `'self'`, `'none'` alone, schemes and hosts; nothing that ends the directive. */
function validFrameAncestors(value: string): boolean {
  const sources = value.trim().split(/ +/);
  if (sources.includes("'none'") && sources.length > 1) return false;
  return sources.every((source) => CSP_SOURCE.test(source));
}

/**
 * `served`: the config.json the server serves (parsed), where `claimMinutes` and `maxClaims` may
 * be set for the whole team; CLAIM_MINUTES and MAX_CLAIMS override them.
 */
export function readSettings(env: Env, served: unknown = null): SettingsResult {
  const read = new Reader(env);
  const port = read.integer('PORT', DEFAULT_PORT, 0, 65535);

  const hostValue = read.raw('HOST');
  let host = 'localhost';
  if (hostValue !== undefined) {
    const bare = hostValue.trim();
    if (HOST_NAME.test(bare) || /^[0-9A-Fa-f:.]+$/.test(bare)) host = bare;
    else read.problem('HOST', 'a host name or IP address to listen on (e.g. 0.0.0.0)', hostValue);
  }

  let basePath = '/';
  const baseValue = read.raw('BASE_PATH');
  if (baseValue !== undefined) {
    const normalized = normalizeBasePath(baseValue);
    if (validBasePath(normalized) && !baseValue.trim().startsWith('//')) basePath = normalized;
    else {
      read.problem(
        'BASE_PATH',
        'a path of plain segments such as /agents/inbox/ (no //, .., spaces or ?)',
        baseValue,
      );
    }
  }

  const maxBodyBytes = read.integer(
    'MAX_BODY_BYTES',
    DEFAULT_MAX_BODY_BYTES,
    1024,
    256 * MIB,
    ' bytes',
  );
  const maxResponseBytes = read.integer(
    'MAX_RESPONSE_BYTES',
    DEFAULT_MAX_RESPONSE_BYTES,
    64 * 1024,
    1024 * MIB,
    ' bytes',
  );
  const timeoutMs = read.integer(
    'UPSTREAM_TIMEOUT_MS',
    DEFAULT_UPSTREAM_TIMEOUT_MS,
    100,
    600_000,
    ' milliseconds',
  );

  let frameAncestors: string | undefined;
  const frameValue = read.raw('FRAME_ANCESTORS');
  if (frameValue !== undefined) {
    if (validFrameAncestors(frameValue)) frameAncestors = frameValue.trim().replace(/ +/g, ' ');
    else {
      read.problem(
        'FRAME_ANCESTORS',
        "a space-separated list of CSP sources such as 'self' https://portal.example.com",
        frameValue,
      );
    }
  }

  const sourceMaps = read.oneOf('SOURCE_MAPS', ['0', '1'], '0') === '1';
  const firstScreen = read.oneOf('FIRST_SCREEN', ['on', 'off'], 'on') === 'on';

  const allowedHosts: string[] = [];
  const allowedValue = read.raw('ALLOWED_HOSTS');
  for (const name of (allowedValue ?? '').split(',').map((entry) => entry.trim())) {
    if (name === '') continue;
    if (validHostPort(name)) allowedHosts.push(name);
    else read.problem('ALLOWED_HOSTS', 'a comma-separated list of host or host:port names', name);
  }

  const reflexio = read.upstream('REFLEXIO', timeoutMs, maxResponseBytes);
  const vertesia = read.upstream('VERTESIA', timeoutMs, maxResponseBytes);
  const bilby = read.upstream('BILBY', timeoutMs, maxResponseBytes);
  let bilbyOrganizationId: string | undefined;
  const organizationValue = read.raw('BILBY_ORGANIZATION_ID');
  if (organizationValue !== undefined) {
    if (UUID.test(organizationValue.trim())) bilbyOrganizationId = organizationValue.trim();
    else read.problem('BILBY_ORGANIZATION_ID', 'a UUID', organizationValue);
  }

  const mock = {
    apiKey: read.secret('MOCK_API_KEY') ?? null,
    maxTenants: read.integer('MOCK_MAX_TENANTS', DEFAULT_MAX_TENANTS, 1, 10_000),
    seed: read.oneOf('MOCK_SEED', ['demo', 'empty'] as const, 'demo'),
    simulatorIntervalMs: read.number('MOCK_SIMULATOR_SECONDS', 20, 0, 86_400, ' seconds') * 1000,
    latencyMs: read.integer('MOCK_LATENCY_MS', 150, 0, 60_000, ' milliseconds'),
  };

  const fromConfig = (key: 'claimMinutes' | 'maxClaims', min: number, max: number) => {
    const value =
      typeof served === 'object' && served !== null
        ? (served as Record<string, unknown>)[key]
        : undefined;
    if (value === undefined) return undefined;
    const whole = key === 'maxClaims';
    if (
      typeof value === 'number' &&
      value >= min &&
      value <= max &&
      (!whole || Number.isInteger(value))
    )
      return value;
    read.problems.push(
      `config.json's ${key} must be a ${whole ? 'whole number' : 'number'} from ${min} to ${max.toLocaleString('en-US')}, not ${shown(JSON.stringify(value) ?? String(value))}.`,
    );
    return undefined;
  };
  const team: TeamConfig = {
    claimMinutes: read.number(
      'CLAIM_MINUTES',
      fromConfig('claimMinutes', 0.05, 1440) ?? DEFAULT_TEAM_CONFIG.claimMinutes,
      0.05,
      1440,
      ' minutes',
    ),
    maxClaims: read.integer(
      'MAX_CLAIMS',
      fromConfig('maxClaims', 1, 10_000) ?? DEFAULT_TEAM_CONFIG.maxClaims,
      1,
      10_000,
    ),
    presenceTtlSeconds: read.integer(
      'PRESENCE_TTL_SECONDS',
      DEFAULT_TEAM_CONFIG.presenceTtlSeconds,
      12,
      600,
      ' seconds',
    ),
    maxEventStreams: read.integer(
      'MAX_EVENT_STREAMS',
      DEFAULT_TEAM_CONFIG.maxEventStreams,
      1,
      100_000,
    ),
    maxPresencePerSecond: read.integer(
      'MAX_PRESENCE_PER_SECOND',
      DEFAULT_TEAM_CONFIG.maxPresencePerSecond,
      1,
      100_000,
    ),
  };

  // Per-person figures: config.json's insightsPerReviewer for the whole team (the page hides them
  // too), INSIGHTS_PER_REVIEWER over it; off, the server sends none.
  const servedPerReviewer =
    typeof served === 'object' && served !== null
      ? (served as Record<string, unknown>).insightsPerReviewer
      : undefined;
  if (servedPerReviewer !== undefined && typeof servedPerReviewer !== 'boolean') {
    read.problems.push(
      `config.json's insightsPerReviewer must be true or false, not ${shown(typeof servedPerReviewer === 'string' ? servedPerReviewer : String(JSON.stringify(servedPerReviewer)))}.`,
    );
  }
  const insights = {
    perReviewer:
      read.oneOf(
        'INSIGHTS_PER_REVIEWER',
        ['0', '1'] as const,
        servedPerReviewer === false ? '0' : '1',
      ) === '1',
  };

  // The watcher's reads of each system (server/watch/), and who may scrape /metrics.
  const watch = {
    intervalMs: read.integer('WATCH_INTERVAL_SECONDS', 10, 1, 3600, ' seconds') * 1000,
  };
  const metricsToken = read.secret('METRICS_TOKEN') ?? null;
  if (metricsToken !== null && metricsToken.length < 16) {
    read.problems.push('METRICS_TOKEN must be at least 16 characters (its value is not shown).');
  }

  const notify = readNotify(read);

  const audit = auditConfigFromEnv(env);
  if (!audit.ok) read.problems.push(audit.message);

  if (read.problems.length > 0 || !audit.ok) return { ok: false, problems: read.problems };
  return {
    ok: true,
    settings: {
      port,
      host,
      basePath,
      maxBodyBytes,
      frameAncestors,
      sourceMaps,
      firstScreen,
      allowedHosts,
      reflexio,
      vertesia,
      bilby,
      bilbyOrganizationId,
      audit: audit.config,
      team,
      insights,
      watch,
      metricsToken,
      notify,
      mock,
    },
  };
}

const HTTP_URL = /^https?:\/\/[^\s]+$/;

/**
 * NOTIFY_* and SMTP_URL: each half of a two-variable setup needs the other; URLs may carry a secret
 * (a Slack-style webhook path, an SMTP password), so a refusal shows them redacted or not at all.
 */
function readNotify(read: Reader): NotifySettings {
  const url = (name: 'NOTIFY_WEBHOOK_URL' | 'PUBLIC_URL') => {
    const value = read.raw(name)?.trim();
    if (value === undefined) return null;
    if (HTTP_URL.test(value) && URL.canParse(value)) return value;
    read.problems.push(
      `${name} must be an http:// or https:// URL, not ${shown(redactUrl(value))}.`,
    );
    return null;
  };
  const webhookUrl = url('NOTIFY_WEBHOOK_URL');
  const webhookSecret = read.secret('NOTIFY_WEBHOOK_SECRET') ?? null;
  if (webhookSecret !== null && !WHSEC.test(webhookSecret)) {
    read.problems.push(
      'NOTIFY_WEBHOOK_SECRET must be a whsec_… secret as the Standard Webhooks spec writes them, e.g. whsec_ and 32 random bytes in base64 (its value is not shown).',
    );
  }
  if ((read.raw('NOTIFY_WEBHOOK_URL') === undefined) !== (webhookSecret === null)) {
    read.problems.push(
      'NOTIFY_WEBHOOK_URL and NOTIFY_WEBHOOK_SECRET go together: set both or neither.',
    );
  }
  const smtpRaw = read.raw('SMTP_URL')?.trim();
  let smtpUrl: string | null = null;
  if (smtpRaw !== undefined) {
    if (/^smtps?:\/\/[^\s]+$/.test(smtpRaw) && URL.canParse(smtpRaw)) smtpUrl = smtpRaw;
    else
      read.problems.push(
        `SMTP_URL must be an smtp:// or smtps:// URL, not ${shown(redactUrl(smtpRaw))}.`,
      );
  }
  const toRaw = read.raw('NOTIFY_EMAIL_TO');
  const emailTo = (toRaw ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
  const badAddress = emailTo.find((address) => !/^[^\s@<>,]+@[^\s@<>,]+$/.test(address));
  if (badAddress !== undefined)
    read.problem('NOTIFY_EMAIL_TO', 'email addresses separated by commas', badAddress);
  if (emailTo.length > 0 && smtpRaw === undefined) {
    read.problems.push('NOTIFY_EMAIL_TO needs SMTP_URL: the server sends mail through it.');
  }
  return {
    configFile: read.raw('NOTIFY_CONFIG')?.trim() ?? null,
    webhookUrl: webhookUrl && webhookSecret ? webhookUrl : null,
    webhookSecret: webhookUrl && webhookSecret ? webhookSecret : null,
    smtpUrl,
    emailTo,
    publicUrl: url('PUBLIC_URL'),
  };
}
