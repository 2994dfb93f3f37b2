// What the operator says of notifications: receivers (where a message goes) and routes (which
// questions reach which receiver, how they are grouped, when a question escalates), from the
// NOTIFY_CONFIG file (YAML or JSON), or from the two-variable setups (NOTIFY_WEBHOOK_URL + SECRET,
// SMTP_URL + NOTIFY_EMAIL_TO) that send every new question to one place with no file.
// Every mistake is one line naming where it is and what is accepted.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

export interface NotifySettings {
  /** NOTIFY_CONFIG: the file's path. */
  configFile: string | null;
  webhookUrl: string | null;
  webhookSecret: string | null;
  smtpUrl: string | null;
  emailTo: string[];
  /** PUBLIC_URL: where reviewers open the portal (the SSO proxy's address): every link starts here. */
  publicUrl: string | null;
}

export type Receiver =
  | { name: string; kind: 'webhook'; url: string; secret: string }
  | { name: string; kind: 'email'; to: string[] }
  | { name: string; kind: 'slack'; url: string }
  | { name: string; kind: 'webpush' };

export interface Match {
  system?: string[];
  tag?: string[];
  agent?: string[];
  tool?: string[];
  /** Only questions that have at most this many minutes left (and have an expiry). */
  minutesLeft?: number;
}

export interface Route {
  /** Named in delivery keys and the operator's view: `routes[2]` unless the file names it. */
  name: string;
  receivers: string[];
  match: Match;
  /** Labels whose values make one group: one message per group per interval. */
  groupBy: GroupLabel[];
  groupWaitMs: number;
  groupIntervalMs: number;
  /** Reminders while a question stays pending and unclaimed; 0: none. */
  repeatIntervalMs: number;
  /** An escalation route fires only when this few minutes are left and nobody is on it. */
  escalateMinutesLeft: number | null;
}

export type GroupLabel = 'system' | 'agent' | 'tool';

export interface NotifyConfig {
  receivers: Receiver[];
  routes: Route[];
}

export const DEFAULT_GROUP_WAIT_MS = 0;
export const DEFAULT_GROUP_INTERVAL_MS = 60_000;
export const DEFAULT_GROUP_BY: GroupLabel[] = ['system', 'agent'];

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

const duration = z.union([
  z.number().nonnegative().max(604_800),
  z
    .string()
    .regex(DURATION, 'a duration such as 30s, 5m, 4h (or a number of seconds)')
    .refine((value) => durationMs(value) <= 604_800_000, 'at most 7 days'),
]);

export function durationMs(value: string | number): number {
  if (typeof value === 'number') return value * 1000;
  const [, amount = '0', unit = 's'] = DURATION.exec(value) ?? [];
  return Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
}

export const WHSEC = /^whsec_[A-Za-z0-9+/]{16,}={0,2}$/;
const httpUrl = z
  .string()
  .refine((value) => /^https?:\/\/[^\s]+$/.test(value) && URL.canParse(value), 'an http(s) URL');
const names = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const email = z.string().regex(/^[^\s@<>,]+@[^\s@<>,]+$/, 'an email address');

const receiverSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - (up to 64)'),
    webhook: z
      .object({
        url: httpUrl,
        secret: z.string().regex(WHSEC, 'a whsec_… secret (base64 after whsec_)'),
      })
      .strict()
      .optional(),
    email: z
      .object({ to: z.union([email, z.array(email).min(1)]) })
      .strict()
      .optional(),
    slack: z.object({ url: httpUrl }).strict().optional(),
    webpush: z.object({}).strict().optional(),
  })
  .strict()
  .refine(
    (r) => [r.webhook, r.email, r.slack, r.webpush].filter(Boolean).length === 1,
    'a receiver has exactly one of webhook, email, slack, webpush',
  );

const routeSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - (up to 64)')
      .optional(),
    receiver: names,
    match: z
      .object({
        system: names.optional(),
        tag: names.optional(),
        agent: names.optional(),
        tool: names.optional(),
        minutes_left: z.number().positive().max(100_000).optional(),
      })
      .strict()
      .optional(),
    group_by: z.array(z.enum(['system', 'agent', 'tool'])).optional(),
    group_wait: duration.optional(),
    group_interval: duration.optional(),
    repeat_interval: duration.optional(),
    escalate: z
      .object({ minutes_left: z.number().positive().max(100_000) })
      .strict()
      .optional(),
  })
  .strict();

const fileSchema = z
  .object({
    receivers: z.array(receiverSchema).min(1, 'name at least one receiver'),
    routes: z.array(routeSchema).min(1, 'name at least one route'),
  })
  .strict();

const list = (value: string | string[] | undefined) =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

function where(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) =>
      typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part),
    '',
  );
}

export type ConfigResult = { ok: true; config: NotifyConfig } | { ok: false; problems: string[] };

/** Reads the file's text (YAML is a superset of JSON: one parser for both). */
export function parseNotifyConfig(
  text: string,
  settings: NotifySettings,
  file = 'NOTIFY_CONFIG',
): ConfigResult {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return { ok: false, problems: [`${file} is not YAML or JSON: ${first}`] };
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map(
        (issue) => `${file}: ${where(issue.path) || 'the file'}: ${issue.message}`,
      ),
    };
  }
  const problems: string[] = [];
  const receivers: Receiver[] = parsed.data.receivers.map((r): Receiver => {
    if (r.webhook) return { name: r.name, kind: 'webhook', ...r.webhook };
    if (r.email) return { name: r.name, kind: 'email', to: list(r.email.to) ?? [] };
    if (r.slack) return { name: r.name, kind: 'slack', url: r.slack.url };
    return { name: r.name, kind: 'webpush' };
  });
  const byName = new Map<string, Receiver>();
  receivers.forEach((receiver, index) => {
    if (byName.has(receiver.name)) {
      problems.push(`${file}: receivers[${index}].name: "${receiver.name}" is named twice`);
    }
    byName.set(receiver.name, receiver);
    if (receiver.kind === 'email' && !settings.smtpUrl) {
      problems.push(`${file}: receivers[${index}]: an email receiver needs SMTP_URL`);
    }
  });
  const routeNames = new Set<string>();
  const routes = parsed.data.routes.map((r, index): Route => {
    const name = r.name ?? `routes[${index}]`;
    if (routeNames.has(name))
      problems.push(`${file}: routes[${index}].name: "${name}" is named twice`);
    routeNames.add(name);
    const routeReceivers = list(r.receiver) ?? [];
    for (const receiver of routeReceivers) {
      if (!byName.has(receiver)) {
        problems.push(`${file}: routes[${index}].receiver: no receiver is named "${receiver}"`);
      }
    }
    return {
      name,
      receivers: routeReceivers,
      match: {
        system: list(r.match?.system),
        tag: list(r.match?.tag),
        agent: list(r.match?.agent),
        tool: list(r.match?.tool),
        minutesLeft: r.match?.minutes_left,
      },
      groupBy: r.group_by ?? DEFAULT_GROUP_BY,
      groupWaitMs: r.group_wait === undefined ? DEFAULT_GROUP_WAIT_MS : durationMs(r.group_wait),
      groupIntervalMs:
        r.group_interval === undefined ? DEFAULT_GROUP_INTERVAL_MS : durationMs(r.group_interval),
      repeatIntervalMs: r.repeat_interval === undefined ? 0 : durationMs(r.repeat_interval),
      escalateMinutesLeft: r.escalate?.minutes_left ?? null,
    };
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, config: { receivers, routes } };
}

/** The whole configuration: the file's routes, plus one route per two-variable setup. */
export function loadNotifyConfig(
  settings: NotifySettings,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): ConfigResult {
  let config: NotifyConfig = { receivers: [], routes: [] };
  if (settings.configFile) {
    let text: string;
    try {
      text = readFile(settings.configFile);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      return {
        ok: false,
        problems: [`NOTIFY_CONFIG cannot be read (${code}): ${settings.configFile}`],
      };
    }
    const parsed = parseNotifyConfig(text, settings);
    if (!parsed.ok) return parsed;
    config = parsed.config;
  }
  const everything = (name: string): Route => ({
    name,
    receivers: [name],
    match: {},
    groupBy: DEFAULT_GROUP_BY,
    groupWaitMs: DEFAULT_GROUP_WAIT_MS,
    groupIntervalMs: DEFAULT_GROUP_INTERVAL_MS,
    repeatIntervalMs: 0,
    escalateMinutesLeft: null,
  });
  const taken = new Set(config.receivers.map((r) => r.name));
  const problems: string[] = [];
  const add = (receiver: Receiver) => {
    if (taken.has(receiver.name)) {
      problems.push(
        `NOTIFY_CONFIG names a receiver "${receiver.name}", the name the variables' receiver takes: rename it`,
      );
      return;
    }
    config.receivers.push(receiver);
    config.routes.push(everything(receiver.name));
  };
  if (settings.webhookUrl && settings.webhookSecret) {
    add({
      name: 'env-webhook',
      kind: 'webhook',
      url: settings.webhookUrl,
      secret: settings.webhookSecret,
    });
  }
  if (settings.smtpUrl && settings.emailTo.length > 0) {
    add({ name: 'env-email', kind: 'email', to: settings.emailTo });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, config };
}

/** Where no NOTIFY_CONFIG decides: what a `webpush` receiver named so gets by default. */
export const DEFAULT_DEVICES = 'devices';
/** The default escalation to reviewers' devices: this few minutes left and nobody on it. */
export const DEFAULT_DEVICES_ESCALATE_MINUTES = 5;

/**
 * Reviewers' own devices are offered without a file: with no NOTIFY_CONFIG, a `webpush` receiver
 * gets every new question (grouped as the variables' receivers are) and an escalation at 5 minutes
 * left, unclaimed. Nothing is sent to anyone until a reviewer turns it on for a device (the bell's
 * "Also when the inbox is closed"); each device's choice then filters what reaches it. A file
 * decides for itself: with one, devices get what its routes send to a `webpush` receiver.
 */
export function offerDevices(config: NotifyConfig, settings: Pick<NotifySettings, 'configFile'>) {
  if (settings.configFile || config.receivers.some((r) => r.kind === 'webpush')) return config;
  if (config.receivers.some((r) => r.name === DEFAULT_DEVICES)) return config;
  const route = (name: string, escalateMinutesLeft: number | null): Route => ({
    name,
    receivers: [DEFAULT_DEVICES],
    match: {},
    groupBy: DEFAULT_GROUP_BY,
    groupWaitMs: DEFAULT_GROUP_WAIT_MS,
    groupIntervalMs: DEFAULT_GROUP_INTERVAL_MS,
    repeatIntervalMs: 0,
    escalateMinutesLeft,
  });
  return {
    receivers: [...config.receivers, { name: DEFAULT_DEVICES, kind: 'webpush' as const }],
    routes: [
      ...config.routes,
      route(DEFAULT_DEVICES, null),
      route(`${DEFAULT_DEVICES}-escalation`, DEFAULT_DEVICES_ESCALATE_MINUTES),
    ],
  };
}
