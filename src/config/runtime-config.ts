import { createContext, use } from 'react';
import * as z from 'zod/mini';
import { lazySchema } from '@/lib/lazy-schema';

/** An http(s) address without user:password (browsers refuse to fetch those), relative or absolute. */
export function isUsableApiBase(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value, 'http://portal.invalid/');
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
}

/**
 * config.json's schema, built at first use: a page the server drew takes the settings its render
 * read (loadRuntimeConfig's `known`), so no schema is built before that page is taken over.
 * public/prefetch.js checks the same rules before it sends anything (src/app/prefetch.test.ts
 * feeds both the same files): keep them in step.
 */
export const runtimeConfigSchema = lazySchema(() => {
  const headerName = z
    .string()
    .check(z.regex(/^[A-Za-z0-9-]+$/, 'must be a valid HTTP header name'));
  // What a browser accepts in a header value (Latin-1, no line breaks): anything else makes every
  // request fail before it is sent.
  const headerValue = z
    .string()
    .check(
      z.regex(
        /^[\t\x20-\x7e\x80-\xff]*$/,
        'must be one line of Latin-1 text (no line breaks, no characters beyond ÿ): browsers refuse anything else',
      ),
    );
  const nonEmpty = z.string().check(z.minLength(1));

  const apiBaseUrl = nonEmpty.check(
    z.refine(isUsableApiBase, {
      message:
        'must be an http(s) address, relative to the portal or absolute, without user:password',
    }),
  );

  const authSchema = z.strictObject({
    mode: z._default(z.enum(['proxy', 'token']), 'proxy'),
    signInUrl: z.optional(nonEmpty),
    userInfoUrl: z.optional(nonEmpty),
  });

  /** What URLs and drafts use to name a source: short, lower case, safe in a path. */
  const sourceId = z
    .string()
    .check(
      z.regex(
        /^[a-z0-9][a-z0-9-]{0,31}$/,
        'must be 1–32 lower-case letters, digits or dashes, starting with a letter or digit',
      ),
    );
  const label = z.optional(nonEmpty);
  /**
   * In `auth.mode: "token"`, who gives this source's API key: the reviewer (`token`, the default)
   * or the portal's server / proxy in front of it (`server`), so the sign-in form does not ask.
   */
  const sourceAuth = z.optional(z.enum(['token', 'server']));

  /** The systems the portal can read, and each one's settings. */
  const sourceConfigSchema = z.discriminatedUnion('kind', [
    z.strictObject({
      id: sourceId,
      kind: z.literal('reflexio'),
      label,
      apiBaseUrl,
      auth: sourceAuth,
    }),
    z.strictObject({
      id: sourceId,
      kind: z.literal('vertesia'),
      label,
      apiBaseUrl,
      auth: sourceAuth,
      // Vertesia refuses unknown request properties from this version on (what the portal sends).
      apiVersion: z._default(
        z.string().check(z.regex(/^\d{8}$/, 'must be a date like 20260803')),
        '20260803',
      ),
    }),
    z.strictObject({
      id: sourceId,
      kind: z.literal('bilby'),
      label,
      apiBaseUrl,
      auth: sourceAuth,
      organizationId: z.optional(nonEmpty),
    }),
  ]);

  const sourcesSchema = z.array(sourceConfigSchema).check(
    z.minLength(1, 'must name at least one source'),
    z.refine((sources) => new Set(sources.map((source) => source.id)).size === sources.length, {
      message: 'every source needs its own id',
    }),
  );

  const fileSchema = z.strictObject({
    apiBaseUrl: z.optional(apiBaseUrl),
    sources: z.optional(sourcesSchema),
    pollIntervalMs: z._default(z.int().check(z.gte(2_000), z.lte(600_000)), 10_000),
    // How often a hidden tab polls while desktop notifications are on: never faster than 15 s.
    notifyPollIntervalMs: z._default(z.int().check(z.gte(15_000), z.lte(3_600_000)), 60_000),
    auth: z._default(authSchema, { mode: 'proxy' }),
    headers: z._default(
      z.record(headerName, headerValue).check(
        z.refine(
          (headers) => !Object.keys(headers).some((name) => name.toLowerCase() === 'authorization'),
          {
            message: 'must not set Authorization (use auth.mode "token" or let the proxy add it)',
          },
        ),
      ),
      {},
    ),
    embed: z._default(z.boolean(), false),
    // "hash": the app's addresses are `<base>#/questions/<id>`, which any static host answers with
    // the start page (the static demo); "path": `<base>questions/<id>`, for a server that answers
    // every address below the base with the app.
    links: z._default(z.enum(['path', 'hash']), 'path'),
    // Claims (docs/team.md): how long a claim holds a question, and how many one reviewer may hold.
    // The portal server reads them from the config.json it serves (CLAIM_MINUTES and MAX_CLAIMS
    // override them there).
    claimMinutes: z._default(z.number().check(z.gte(0.05), z.lte(1440)), 15),
    // A final action (a JSON result, an answer that cannot be edited, a cancel) waits this long,
    // undoable, before it is sent (docs/using.md); 0 sends at once.
    undoSeconds: z._default(z.number().check(z.gte(0), z.lte(60)), 5),
    maxClaims: z._default(z.int().check(z.gte(1), z.lte(10_000)), 50),
    // Insights (docs/insights.md): the team's target for how long agents wait, drawn on the chart;
    // whether the page shows actions per reviewer (the server reads it too: INSIGHTS_PER_REVIEWER).
    responseTargetMinutes: z.optional(z.number().check(z.gte(1), z.lte(10_080))),
    insightsPerReviewer: z._default(z.boolean(), true),
  });

  /**
   * config.json: `sources` lists the systems to read; the older single `apiBaseUrl` is one
   * Reflexio source (`apiBaseUrl` is then the first Reflexio source's address, or null).
   */
  return z.pipe(
    fileSchema.check(
      z.refine((file) => !(file.apiBaseUrl !== undefined && file.sources !== undefined), {
        message: 'give either apiBaseUrl or sources, not both (put the address in sources)',
        path: ['apiBaseUrl'],
      }),
    ),
    z.transform(({ apiBaseUrl: single, sources, ...rest }) => {
      const all: z.infer<typeof sourceConfigSchema>[] = sources ?? [
        { id: 'reflexio', kind: 'reflexio', apiBaseUrl: single ?? 'api' },
      ];
      const reflexio = all.find((source) => source.kind === 'reflexio');
      return { ...rest, sources: all, apiBaseUrl: reflexio ? reflexio.apiBaseUrl : null };
    }),
  );
});

export type RuntimeConfig = z.output<ReturnType<typeof runtimeConfigSchema>>;
/** The systems the portal can read, and each one's settings. */
export type SourceConfig = RuntimeConfig['sources'][number];

const SYSTEM_NAMES = { reflexio: 'Reflexio', vertesia: 'Vertesia', bilby: 'Bilby' } as const;

/** What the portal calls a source: its `label`, or the system's name. */
export function sourceLabel(source: Pick<SourceConfig, 'kind' | 'label'>): string {
  return source.label ?? SYSTEM_NAMES[source.kind];
}

/** In `auth.mode: "token"`, the sources whose API key the reviewer gives (in config order). */
export function sourcesNeedingKeys(
  config: Pick<RuntimeConfig, 'auth' | 'sources'>,
): SourceConfig[] {
  if (config.auth.mode !== 'token') return [];
  return config.sources.filter((source) => source.auth !== 'server');
}

export type ConfigLoadResult =
  /** `text`: config.json as it came (the server's render hands it to the browser's, see below). */
  | { ok: true; config: RuntimeConfig; baseUrl: URL; text: string }
  | { ok: false; url: string; problem: string; issues: string[] };

function describeIssues(error: z.core.$ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    return `${path}: ${issue.message}`;
  });
}

export function parseRuntimeConfig(
  raw: unknown,
): { ok: true; config: RuntimeConfig } | { ok: false; issues: string[] } {
  const parsed = runtimeConfigSchema().safeParse(raw);
  return parsed.success
    ? { ok: true, config: parsed.data }
    : { ok: false, issues: describeIssues(parsed.error) };
}

/** config.json as a render already read it: its text, and the settings that text gave (JSON). */
export interface ReadConfig {
  text: string;
  config: string;
}

/**
 * Fetches `config.json` next to `index.html` (resolved against `<base href>`), before the first
 * render. `known`: the file as the server's render of this page read it (the first screen's state):
 * the same text gives the same settings, taken as they are, with no schema built or run before
 * the page is taken over (zod's schemas cost the take-over ~10 ms); other text is read anew.
 */
export async function loadRuntimeConfig(
  baseUrl: URL = new URL(document.baseURI),
  fetchImpl: typeof fetch = fetch,
  known?: ReadConfig,
): Promise<ConfigLoadResult> {
  const url = new URL('config.json', baseUrl).toString();
  let response: Response;
  try {
    response = await fetchImpl(url, {
      cache: 'no-store',
      credentials: 'same-origin',
      redirect: 'manual',
    });
  } catch {
    return { ok: false, url, problem: 'The configuration file could not be reached.', issues: [] };
  }
  if (response.type === 'opaqueredirect' || response.redirected) {
    return {
      ok: false,
      url,
      problem: 'Loading the configuration was redirected, probably to a sign-in page.',
      issues: ['Reload the page to sign in again.'],
    };
  }
  if (!response.ok) {
    return {
      ok: false,
      url,
      problem: `The configuration file answered HTTP ${response.status}.`,
      issues: [],
    };
  }
  let text: string;
  let raw: unknown;
  try {
    text = await response.text();
    if (known && text === known.text) {
      return { ok: true, config: JSON.parse(known.config) as RuntimeConfig, baseUrl, text };
    }
    raw = JSON.parse(text);
  } catch {
    return { ok: false, url, problem: 'The configuration file is not valid JSON.', issues: [] };
  }
  const parsed = parseRuntimeConfig(raw);
  return parsed.ok
    ? { ok: true, config: parsed.config, baseUrl, text }
    : {
        ok: false,
        url,
        problem: 'The configuration file has invalid settings.',
        issues: parsed.issues,
      };
}

export const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

export function useRuntimeConfig(): RuntimeConfig {
  const config = use(RuntimeConfigContext);
  if (!config) throw new Error('useRuntimeConfig needs a RuntimeConfigContext provider');
  return config;
}
