import { ApiError } from '@/lib/api-client';
import type { WireRequest } from '../http';
import { resolveBodySchema, VERTESIA_API_VERSION } from './wire';

export interface VertesiaConfig {
  /** Absolute API root, e.g. `https://api.us1.vertesia.io/api/v1/` or the portal's `…/vertesia/api/v1/`. */
  apiBaseUrl: string;
  apiVersion?: string;
  /** Further headers (token mode's `Authorization`); never `x-api-version`, which is set here. */
  headers?: Record<string, string>;
}

function url(config: VertesiaConfig, path: string): string {
  const base = config.apiBaseUrl.endsWith('/') ? config.apiBaseUrl : `${config.apiBaseUrl}/`;
  return new URL(path, base).toString();
}

function headers(config: VertesiaConfig): Record<string, string> {
  return { ...config.headers, 'x-api-version': config.apiVersion ?? VERTESIA_API_VERSION };
}

export function listAsksRequest(config: VertesiaConfig): WireRequest {
  return { method: 'GET', url: url(config, 'pending-asks'), headers: headers(config) };
}

/**
 * An ask's own URL. Vertesia's schema takes any string as an `askId`, but `''`, `.` and `..` are
 * not names in a URL path (even percent-encoded, `%2e` is a dot step): `pending-asks/..` is the API
 * root and `pending-asks/../resolve` another endpoint. Such an ask is never addressed.
 */
function askUrl(config: VertesiaConfig, method: string, askId: string, rest = ''): string {
  if (askId === '' || askId === '.' || askId === '..') {
    const message = `This ask's id (${JSON.stringify(askId)}) cannot be used in a Vertesia URL.`;
    throw new ApiError({
      kind: 'validation',
      status: 0,
      method,
      url: url(config, 'pending-asks'),
      detail: message,
      message,
    });
  }
  return url(config, `pending-asks/${encodeURIComponent(askId)}${rest}`);
}

export function getAskRequest(config: VertesiaConfig, askId: string): WireRequest {
  return { method: 'GET', url: askUrl(config, 'GET', askId), headers: headers(config) };
}

export function resolveAskRequest(
  config: VertesiaConfig,
  askId: string,
  response: string,
): WireRequest {
  return {
    method: 'POST',
    url: askUrl(config, 'POST', askId, '/resolve'),
    headers: headers(config),
    body: resolveBodySchema.parse({ response }),
  };
}

const NO_ANSWER = '(no answer)';

/**
 * The one `response` string an ask takes. One question: the answer as typed. Several: each
 * question followed by its answer, so the agent (and a person reading the run) can tell which
 * answer goes with which; a question left blank says so. At least one answer must be given.
 */
export function buildVertesiaResponse(questions: readonly string[], answers: readonly string[]) {
  if (answers.length !== questions.length) {
    throw new RangeError(`${questions.length} questions but ${answers.length} answers`);
  }
  const trimmed = answers.map((answer) => answer.trim());
  if (trimmed.every((answer) => answer === '')) throw new RangeError('No answer was given');
  if (questions.length === 1) return trimmed[0] as string;
  return questions
    .map((question, index) => `Q: ${question.trim()}\nA: ${trimmed[index] || NO_ANSWER}`)
    .join('\n\n');
}
