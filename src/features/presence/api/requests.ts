import {
  ApiError,
  createApiClient,
  isNoPortalServer,
  kindForStatus,
  parseResponse,
} from '@/lib/api-client';
import {
  type ClaimAnswer,
  claimAnswerSchema,
  meSchema,
  type TeamState,
  type TeamSubject,
  teamStateSchema,
} from './schemas';

/** The portal server's team routes, next to the page (`<base>/portal-api/team/`). */
export function teamRoot(): string {
  return new URL('portal-api/team/', document.baseURI).href;
}

const client = () => createApiClient({ baseUrl: teamRoot() });
const meClient = () => createApiClient({ baseUrl: new URL('portal-api/', document.baseURI) });

/** Who the server says this browser's reviewer is; null without a portal server. */
export async function fetchMe(): Promise<string | null> {
  try {
    const data = await meClient().request('me');
    return parseResponse(meSchema(), data, { method: 'GET', url: 'portal-api/me' }).reviewer.id;
  } catch (error) {
    if (isNoPortalServer(error)) return null;
    throw error;
  }
}

export async function fetchTeamState(signal?: AbortSignal): Promise<TeamState> {
  const data = await client().request('state', { signal });
  return parseResponse(teamStateSchema(), data, { method: 'GET', url: 'portal-api/team/state' });
}

const ref = (q: TeamSubject) => ({ source: q.source.id, id: q.id });
/** For claims: the system's kind too, so the trail names the question as its system does. */
const claimRef = (q: TeamSubject) => ({ ...ref(q), kind: q.source.kind });

/** The most questions one claim or release names (the server's cap). */
const PER_REQUEST = 100;

function inBatches<T>(items: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += PER_REQUEST) batches.push(items.slice(i, i + PER_REQUEST));
  return batches;
}

/**
 * Claims what it can of `questions`, 100 to a request, one request after another; each refusal
 * says why (someone holds it, the cap).
 */
export async function claimQuestions(questions: readonly TeamSubject[]): Promise<ClaimAnswer> {
  const answer: ClaimAnswer = { claimed: [], refused: [] };
  for (const batch of inBatches(questions)) {
    const part = await claimBatch(batch);
    answer.claimed.push(...part.claimed);
    answer.refused.push(...part.refused);
  }
  return answer;
}

async function claimBatch(questions: readonly TeamSubject[]): Promise<ClaimAnswer> {
  const response = await fetch(new URL('claim', teamRoot()), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ questions: questions.map(claimRef) }),
  });
  const data: unknown = await response.json().catch(() => null);
  // 409: none could be claimed; the body says why, as on a 200.
  if (response.ok || response.status === 409) {
    return parseResponse(claimAnswerSchema(), data, {
      method: 'POST',
      url: 'portal-api/team/claim',
    });
  }
  const detail = typeof data === 'object' && data && 'detail' in data ? String(data.detail) : null;
  throw new ApiError({
    kind: response.status === 429 ? 'unavailable' : kindForStatus(response.status, false),
    status: response.status,
    detail,
    message: detail ?? `Claim failed (HTTP ${response.status})`,
    method: 'POST',
    url: 'portal-api/team/claim',
  });
}

export async function releaseQuestions(questions: readonly TeamSubject[]): Promise<void> {
  for (const batch of inBatches(questions)) {
    await client().request('release', { method: 'POST', body: { questions: batch.map(claimRef) } });
  }
}

/** What one tab has open (`question`), or that it closed one (`question: null`, `left`). */
export interface PresenceTab {
  tab: string;
  question: { source: string; id: string } | null;
  typing?: boolean;
  left?: { source: string; id: string };
}

/**
 * What the browser's tabs have open, in one request. Never the answer's text: only that it is
 * being typed. `keepalive` lets the last one leave with a closing tab.
 */
export function sendPresence(tabs: readonly PresenceTab[], keepalive = false): Promise<unknown> {
  return fetch(new URL('presence', teamRoot()), {
    method: 'POST',
    credentials: 'same-origin',
    keepalive,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tabs }),
  }).catch(() => null);
}
