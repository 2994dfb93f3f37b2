import { ApiError, type ApiErrorKind, createApiClient, parseResponse } from '@/lib/api-client';
import {
  type Snippet,
  type SnippetDraft,
  type SnippetList,
  savedSnippetSchema,
  snippetListSchema,
} from './schemas';

/** The portal server's snippets, next to the page (`<base>/portal-api/snippets`). */
const client = () =>
  createApiClient({
    baseUrl: new URL('portal-api/', document.baseURI),
    // The server's refusals say what is wrong in `detail`, in the reviewer's words.
    readError: (status, body) => {
      const detail =
        typeof body === 'object' && body !== null && 'detail' in body
          ? String((body as { detail: unknown }).detail)
          : null;
      if (detail === null) return null;
      const kinds: Record<number, ApiErrorKind> = {
        400: 'validation',
        401: 'auth',
        403: 'forbidden',
        404: 'not-found',
        409: 'conflict',
        413: 'too-large',
        415: 'validation',
        429: 'rate-limited',
        503: 'unavailable',
      };
      return { kind: kinds[status] ?? 'server', detail };
    },
  });

/** Whether an error means there is no portal server here (nginx alone, a static host). */
export function isAbsent(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 404 ||
      error.kind === 'bad-response' ||
      (error.kind === 'auth' && error.status === 200))
  );
}

/** The snippets of one system; null where there is no portal server to keep them. */
export async function fetchSnippets(
  sourceId: string | null,
  signal?: AbortSignal,
): Promise<SnippetList | null> {
  const url = sourceId === null ? 'snippets' : `snippets?source=${encodeURIComponent(sourceId)}`;
  try {
    const data = await client().request(url, { signal });
    return parseResponse(snippetListSchema(), data, { method: 'GET', url: `portal-api/${url}` });
  } catch (error) {
    if (isAbsent(error)) return null;
    throw error;
  }
}

export async function createSnippet(sourceId: string, draft: SnippetDraft): Promise<Snippet> {
  const data = await client().request('snippets', {
    method: 'POST',
    body: { source: sourceId, title: draft.title, text: draft.text, tag: draft.tag },
  });
  return parseResponse(savedSnippetSchema(), data, {
    method: 'POST',
    url: 'portal-api/snippets',
  }).snippet;
}

export async function updateSnippet(snippet: Snippet, draft: SnippetDraft): Promise<Snippet> {
  const url = `snippets/${encodeURIComponent(snippet.id)}`;
  const data = await client().request(url, {
    method: 'PUT',
    body: { title: draft.title, text: draft.text, tag: draft.tag, version: snippet.version },
  });
  return parseResponse(savedSnippetSchema(), data, { method: 'PUT', url: `portal-api/${url}` })
    .snippet;
}

export async function deleteSnippet(snippet: Snippet): Promise<void> {
  await client().request(`snippets/${encodeURIComponent(snippet.id)}`, {
    method: 'DELETE',
    query: { version: snippet.version },
  });
}
