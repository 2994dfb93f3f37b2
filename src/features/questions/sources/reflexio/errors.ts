import {
  type ErrorDescription,
  type ErrorReading,
  type FieldError,
  kindForStatus,
} from '@/lib/api-client';

/** FastAPI's `detail`: a sentence, or a list of field errors (a 422). */
function readFastApiDetail(
  body: unknown,
): { detail: string | null; fieldErrors: FieldError[] } | null {
  if (typeof body !== 'object' || body === null || !('detail' in body)) return null;
  const { detail } = body as { detail: unknown };
  if (typeof detail === 'string') return { detail, fieldErrors: [] };
  if (!Array.isArray(detail)) return null;
  const fieldErrors = detail.flatMap((item): FieldError[] => {
    if (typeof item !== 'object' || item === null) return [];
    const { loc, msg } = item as { loc?: unknown; msg?: unknown };
    const path = Array.isArray(loc) ? loc.map(String) : [];
    // FastAPI's leading `body`/`query`/`path` is where, not what: the field is the rest.
    const field = (
      path[0] === 'body' || path[0] === 'query' || path[0] === 'path' ? path.slice(1) : path
    ).join('.');
    return [{ field, message: typeof msg === 'string' ? msg : 'Invalid value' }];
  });
  return {
    detail:
      fieldErrors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ') || null,
    fieldErrors,
  };
}

/** Reflexio's 503s that no retry fixes: its storage cannot hold pending tool calls. */
const STORAGE_PROBLEMS: [detail: RegExp, description: ErrorDescription][] = [
  [
    /not supported by the configured storage backend/i,
    {
      title: 'This Reflexio server cannot hold questions',
      message:
        'Its storage backend (disk storage) does not support pending tool calls. An administrator must switch it to SQLite, Postgres or Supabase storage.',
      retryable: false,
    },
  ],
  [
    /storage not configured/i,
    {
      title: 'Reflexio has no storage configured',
      message:
        'The server is running without storage, so it has no questions. An administrator must configure it.',
      retryable: false,
    },
  ],
];

function storageProblem(detail: string | null): ErrorDescription | null {
  if (!detail) return null;
  return STORAGE_PROBLEMS.find(([pattern]) => pattern.test(detail))?.[1] ?? null;
}

/** Reflexio's (FastAPI's) error bodies, `{detail}`, → the app's error kinds and words. */
export function readReflexioError(status: number, body: unknown): ErrorReading | null {
  const read = readFastApiDetail(body);
  if (!read) return null;
  // FastAPI's own "Not Found" is a route that does not exist: a wrong API address, not Reflexio's.
  const kind = kindForStatus(status, read.detail !== null && read.detail !== 'Not Found');
  return {
    kind,
    detail: read.detail,
    fieldErrors: read.fieldErrors,
    description: kind === 'unavailable' ? storageProblem(read.detail) : null,
  };
}
