import { createContext, use } from 'react';
import { z } from 'zod';

const headerName = z.string().regex(/^[A-Za-z0-9-]+$/, 'must be a valid HTTP header name');

const authSchema = z
  .object({
    mode: z.enum(['proxy', 'token']).default('proxy'),
    signInUrl: z.string().min(1).optional(),
    userInfoUrl: z.string().min(1).optional(),
  })
  .strict();

export const runtimeConfigSchema = z
  .object({
    apiBaseUrl: z.string().min(1).default('api'),
    pollIntervalMs: z.number().int().min(2_000).max(600_000).default(10_000),
    auth: authSchema.default({ mode: 'proxy' }),
    headers: z
      .record(headerName, z.string())
      .refine(
        (headers) => !Object.keys(headers).some((name) => name.toLowerCase() === 'authorization'),
        {
          message: 'must not set Authorization (use auth.mode "token" or let the proxy add it)',
        },
      )
      .default({}),
    embed: z.boolean().default(false),
  })
  .strict();

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

export type ConfigLoadResult =
  | { ok: true; config: RuntimeConfig; baseUrl: URL }
  | { ok: false; url: string; problem: string; issues: string[] };

function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    return `${path}: ${issue.message}`;
  });
}

export function parseRuntimeConfig(
  raw: unknown,
): { ok: true; config: RuntimeConfig } | { ok: false; issues: string[] } {
  const parsed = runtimeConfigSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, config: parsed.data }
    : { ok: false, issues: describeIssues(parsed.error) };
}

/** Fetches `config.json` next to `index.html` (resolved against `<base href>`), before the first render. */
export async function loadRuntimeConfig(
  baseUrl: URL = new URL(document.baseURI),
  fetchImpl: typeof fetch = fetch,
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
  let raw: unknown;
  try {
    raw = await response.json();
  } catch {
    return { ok: false, url, problem: 'The configuration file is not valid JSON.', issues: [] };
  }
  const parsed = parseRuntimeConfig(raw);
  return parsed.ok
    ? { ok: true, config: parsed.config, baseUrl }
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
