// The team's saved answers: `GET /portal-api/snippets[?source=…]` lists them, `POST` saves one,
// `PUT` (or `PATCH`) `/portal-api/snippets/<id>` changes one, `DELETE` removes one. Any signed-in
// reviewer may do each (the identity rules of server/identity); every change is written to the
// audit trail as the answers are: its attempt before, its outcome after, the snippet's title and
// text kept as AUDIT_ANSWERS keeps an answer. Bodies are capped at 16 KB, titles at 100
// characters, texts at 4,000, the deployment at 500 snippets. Nothing is logged but failures of
// the database. No Node built-ins: the server keeps snippets in its database (./sql.ts), the
// static demo's Service Worker in the browser (./memory.ts; demo/portal.ts).
import { type AnswerMode, DEFAULT_ANSWER_MAX_BYTES, keepAnswer } from '../audit/answer';
import { writeRate } from '../audit/limits';
import type { AuditAction, TrailStore } from '../audit/types';
import { readBodyWithin } from '../http/body-limit';
import { type IdentityConfig, identify, type Reviewer } from '../identity/identity';
import { message } from '../lib/message';
import {
  SNIPPET_LIMITS,
  SNIPPETS_PATH,
  type Snippet,
  type SnippetStore,
  type SnippetText,
  snippetTrailId,
} from './types';

export interface SnippetsOptions {
  store: SnippetStore;
  trail: Pick<TrailStore, 'insertAttempts' | 'insertOutcome'>;
  identity: IdentityConfig;
  /** The systems the portal reads (config.json's sources): a snippet is for one of them. */
  systems: readonly { id: string; kind: string }[];
  /** AUDIT_ANSWERS and AUDIT_ANSWER_MAX_BYTES: how the trail keeps a snippet's text. */
  answers?: AnswerMode;
  answerMaxBytes?: number;
  hashKey?: () => Promise<Uint8Array<ArrayBuffer>>;
  /** Tests: fewer than SNIPPET_LIMITS.max. */
  max?: number;
  now?: () => number;
  log?: (line: string) => void;
  /** Makes the ids (tests); a random UUID otherwise. */
  newId?: () => string;
}

export interface Snippets {
  /** `/portal-api/snippets…`, or null for any other path (the caller tries its next API). */
  api(request: Request, innerPath: string): Promise<Response | null>;
}

function json(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

const refuse = (status: number, detail: string, headers?: Record<string, string>) =>
  json(status, { detail }, headers);

/** Control characters other than tab and line breaks, and the ones text direction hides behind. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const UNPRINTABLE_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/;
/** A title or a tag is one line of printable text. */
const UNPRINTABLE_LINE = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const count = (n: number) => n.toLocaleString('en-US');

/** What the trail keeps of a snippet: its title on the first line, its text after. */
export function trailText(snippet: Pick<Snippet, 'title' | 'body'>): string {
  return `${snippet.title}\n${snippet.body}`;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

export function createSnippets(options: SnippetsOptions): Snippets {
  const { store, trail, identity } = options;
  const max = options.max ?? SNIPPET_LIMITS.max;
  const mode = options.answers ?? 'full';
  const maxBytes = options.answerMaxBytes ?? DEFAULT_ANSWER_MAX_BYTES;
  const log = options.log ?? ((line: string) => console.error(line));
  const rate = writeRate(SNIPPET_LIMITS.writesPerMinute, options.now);
  const newId = options.newId ?? (() => globalThis.crypto.randomUUID());
  const kindOf = new Map(options.systems.map((system) => [system.id, system.kind]));
  const systemNames = options.systems.map((system) => system.id).join(', ');

  const unavailable = (error: unknown, what: string) => {
    log(`[snippets] could not ${what}: ${message(error)}`);
    return refuse(
      503,
      `The team's snippets could not be ${what === 'read' ? 'read' : 'saved'}: the portal's database is unavailable. ${what === 'read' ? 'Try again in a moment.' : 'What you typed is still here; try again in a moment.'}`,
    );
  };

  const source = (value: unknown): Parsed<string> => {
    if (typeof value === 'string' && kindOf.has(value)) return { ok: true, value };
    return {
      ok: false,
      response: refuse(
        400,
        typeof value === 'string'
          ? `"${value.slice(0, 64)}" is not one of the systems this portal reads (${systemNames}).`
          : `source: the system the snippet is for, one of ${systemNames}.`,
      ),
    };
  };

  /** A title, text and tag as a reviewer may write them, or the refusal saying what is wrong. */
  const snippetText = (body: Record<string, unknown>): Parsed<SnippetText> => {
    const bad = (detail: string): Parsed<SnippetText> => ({
      ok: false,
      response: refuse(400, detail),
    });
    const title = typeof body.title === 'string' ? body.title.trim() : '';
    if (!title || title.length > SNIPPET_LIMITS.titleChars || UNPRINTABLE_LINE.test(title)) {
      return bad(
        `title: 1 to ${SNIPPET_LIMITS.titleChars} characters on one line (it names the snippet in the list).`,
      );
    }
    const text = typeof body.text === 'string' ? body.text : '';
    if (!text.trim()) return bad('text: the answer the snippet puts in the box; it is empty.');
    if (text.length > SNIPPET_LIMITS.textChars) {
      return bad(
        `text: at most ${count(SNIPPET_LIMITS.textChars)} characters (this one has ${count(text.length)}): shorten it.`,
      );
    }
    if (UNPRINTABLE_TEXT.test(text)) {
      return bad('text: holds a control character; only printable text, tabs and line breaks.');
    }
    let tag: string | null = null;
    if (body.tag !== undefined && body.tag !== null) {
      const value = typeof body.tag === 'string' ? body.tag.trim() : null;
      if (
        value === null ||
        value.length > SNIPPET_LIMITS.tagChars ||
        UNPRINTABLE_LINE.test(value)
      ) {
        return bad(`tag: at most ${SNIPPET_LIMITS.tagChars} characters on one line, or none.`);
      }
      tag = value || null;
    }
    return { ok: true, value: { title, body: text, tag } };
  };

  const readJson = async (request: Request): Promise<Parsed<Record<string, unknown>>> => {
    const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') {
      return {
        ok: false,
        response: refuse(415, 'Send the snippet as JSON (Content-Type: application/json).'),
      };
    }
    const read = await readBodyWithin(request, SNIPPET_LIMITS.bodyBytes);
    if (!read.ok) {
      return {
        ok: false,
        response: refuse(
          413,
          `The snippet is over ${SNIPPET_LIMITS.bodyBytes / 1024} KB, the most one may be: shorten its text.`,
          { connection: 'close' },
        ),
      };
    }
    try {
      const value: unknown = JSON.parse(new TextDecoder().decode(read.body ?? new Uint8Array()));
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        return { ok: true, value: value as Record<string, unknown> };
      }
    } catch {}
    return { ok: false, response: refuse(400, 'The body must be a JSON object.') };
  };

  const limited = (reviewer: Reviewer): Response | null => {
    const wait = rate(reviewer.id, 1);
    if (wait === 0) return null;
    return refuse(
      429,
      `More snippet changes than the portal takes from one reviewer in a minute (${SNIPPET_LIMITS.writesPerMinute}): what you typed is still here; try again in ${wait} seconds.`,
      { 'retry-after': String(wait) },
    );
  };

  /**
   * Writes the attempt, runs `change`, writes its outcome: an attempt that cannot be written
   * stops the change (the reviewer's text stays in their form), as for answers.
   */
  const recorded = async (
    reviewer: Reviewer,
    action: AuditAction,
    subject: Pick<Snippet, 'id' | 'sourceId' | 'title' | 'body'>,
    change: () => Promise<Response>,
  ): Promise<Response> => {
    const requestId = globalThis.crypto.randomUUID();
    try {
      const hashKey = mode === 'hash' && options.hashKey ? await options.hashKey() : null;
      await trail.insertAttempts([
        {
          requestId,
          reviewer: reviewer.id,
          reviewerName: reviewer.name,
          selfNamed: reviewer.from === 'browser',
          sourceId: subject.sourceId,
          sourceKind: kindOf.get(subject.sourceId) ?? subject.sourceId,
          questionId: snippetTrailId(subject.id),
          action,
          ...(await keepAnswer(trailText(subject), mode, { maxBytes, hashKey })),
        },
      ]);
    } catch (error) {
      log(`[snippets] could not record a ${action}: ${message(error)}`);
      return refuse(
        503,
        'Not saved: the portal could not write its audit trail, which records who changed each snippet. What you typed is still here; try again in a moment.',
      );
    }
    let response: Response;
    try {
      response = await change();
    } catch (error) {
      await trail.insertOutcome({ requestId, status: 503, detail: message(error) }).catch(() => {});
      return unavailable(error, 'save');
    }
    let detail: string | null = null;
    if (response.status >= 400) {
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { detail?: unknown } | null;
      detail = typeof body?.detail === 'string' ? body.detail : null;
    }
    await trail
      .insertOutcome({ requestId, status: response.status, detail })
      .catch((error: unknown) =>
        log(`[snippets] could not record the outcome of ${requestId}: ${message(error)}`),
      );
    return response;
  };

  const titleTaken = (text: SnippetText, sourceId: string) =>
    refuse(
      409,
      `There is already a snippet called “${text.title}” for ${sourceId}${text.tag ? ` tagged ${text.tag}` : ''}: choose another title, or edit that one.`,
    );

  const full = () =>
    refuse(
      409,
      `The team already keeps ${count(max)} snippets, the most this portal keeps: delete some no one uses (Manage snippets), then save again. What you typed is still here.`,
    );

  const changedBy = (current: Snippet) =>
    json(409, {
      detail: `${current.updatedBy} changed this snippet since you opened it: look at their version, then make your change again.`,
      current,
    });

  const gone = () =>
    refuse(404, 'This snippet is gone: someone deleted it. Save your text as a new snippet.');

  const list = async (request: Request): Promise<Response> => {
    const wanted = new URL(request.url).searchParams.get('source');
    if (wanted !== null) {
      const checked = source(wanted);
      if (!checked.ok) return checked.response;
    }
    try {
      const [snippets, total] = await Promise.all([store.list(wanted), store.count()]);
      return json(200, { snippets, total, max });
    } catch (error) {
      return unavailable(error, 'read');
    }
  };

  const create = async (request: Request, reviewer: Reviewer): Promise<Response> => {
    const body = await readJson(request);
    if (!body.ok) return body.response;
    const system = source(body.value.source);
    if (!system.ok) return system.response;
    const text = snippetText(body.value);
    if (!text.ok) return text.response;
    const tooMany = limited(reviewer);
    if (tooMany) return tooMany;
    try {
      if ((await store.count()) >= max) return full();
    } catch (error) {
      return unavailable(error, 'read');
    }
    const id = newId();
    return recorded(
      reviewer,
      'snippet-create',
      { id, sourceId: system.value, ...text.value },
      async () => {
        const result = await store.create(
          {
            id,
            sourceId: system.value,
            reviewer: reviewer.id,
            reviewerName: reviewer.name,
            ...text.value,
          },
          max,
        );
        if (result.ok) return json(201, { snippet: result.snippet });
        return result.reason === 'full' ? full() : titleTaken(text.value, system.value);
      },
    );
  };

  const edit = async (request: Request, reviewer: Reviewer, id: string): Promise<Response> => {
    const body = await readJson(request);
    if (!body.ok) return body.response;
    const version = body.value.version;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
      return refuse(400, 'version: the version of the snippet you changed (a whole number).');
    }
    const text = snippetText(body.value);
    if (!text.ok) return text.response;
    const tooMany = limited(reviewer);
    if (tooMany) return tooMany;
    let current: Snippet | null;
    try {
      current = await store.get(id);
    } catch (error) {
      return unavailable(error, 'read');
    }
    if (!current) return gone();
    if (current.version !== version) return changedBy(current);
    const sourceId = current.sourceId;
    return recorded(reviewer, 'snippet-edit', { id, sourceId, ...text.value }, async () => {
      const result = await store.update(id, version, text.value, reviewer);
      if (result.ok) return json(200, { snippet: result.snippet });
      if (result.reason === 'gone') return gone();
      if (result.reason === 'changed') return changedBy(result.current);
      return titleTaken(text.value, sourceId);
    });
  };

  const remove = async (request: Request, reviewer: Reviewer, id: string): Promise<Response> => {
    const raw = new URL(request.url).searchParams.get('version');
    const version = raw === null ? null : Number(raw);
    if (version !== null && (!Number.isInteger(version) || version < 1)) {
      return refuse(
        400,
        'version: the version of the snippet you mean to delete (a whole number).',
      );
    }
    const tooMany = limited(reviewer);
    if (tooMany) return tooMany;
    let current: Snippet | null;
    try {
      current = await store.get(id);
    } catch (error) {
      return unavailable(error, 'read');
    }
    if (!current) return gone();
    if (version !== null && current.version !== version) return changedBy(current);
    const deleting = current;
    return recorded(reviewer, 'snippet-delete', deleting, async () => {
      const result = await store.remove(id, version);
      if (result.ok) return json(200, { deleted: result.snippet });
      return result.reason === 'gone' ? gone() : changedBy(result.current);
    });
  };

  return {
    async api(request, innerPath) {
      if (innerPath !== SNIPPETS_PATH && !innerPath.startsWith(`${SNIPPETS_PATH}/`)) return null;
      const method = request.method.toUpperCase();
      const reviewer = identify(request.headers, identity);
      if (reviewer instanceof Response) return reviewer;
      if (innerPath === SNIPPETS_PATH) {
        if (method === 'GET' || method === 'HEAD') return list(request);
        if (method === 'POST') return create(request, reviewer);
        return refuse(405, 'GET lists the snippets, POST saves one.', { allow: 'GET, HEAD, POST' });
      }
      const id = innerPath.slice(SNIPPETS_PATH.length + 1);
      if (!UUID.test(id)) return refuse(404, 'No such snippet: its address ends in its id.');
      if (method === 'PUT' || method === 'PATCH') return edit(request, reviewer, id);
      if (method === 'DELETE') return remove(request, reviewer, id);
      if (method === 'GET' || method === 'HEAD') {
        try {
          const snippet = await store.get(id);
          return snippet ? json(200, { snippet }) : gone();
        } catch (error) {
          return unavailable(error, 'read');
        }
      }
      return refuse(405, 'PUT changes a snippet, DELETE removes it.', {
        allow: 'GET, HEAD, PUT, PATCH, DELETE',
      });
    },
  };
}
