import {
  type ApiClient,
  type ApiClientOptions,
  createApiClient,
  parseResponse,
} from '@/lib/api-client';
import { type QuestionOrigin, REFLEXIO_ORIGIN } from '../../api/schemas';
import type { QuestionSource } from '../../api/source';
import { copyVersion } from '../copy-version';
import { readReflexioError } from './errors';
import {
  answerBodySchema,
  notApplicableBodySchema,
  parseQuestionList,
  pendingToolCallListSchema,
  pendingToolCallSchema,
  resolveBodySchema,
  toQuestion,
} from './wire';

const BASE = 'pending_tool_calls';

function callPath(id: string, action?: string): string {
  const path = `${BASE}/${encodeURIComponent(id)}`;
  return action ? `${path}/${action}` : path;
}

/** An HTTP client for Reflexio's API: the app's one fetch wrapper, reading Reflexio's error bodies. */
export function createReflexioClient(options: Omit<ApiClientOptions, 'readError'>): ApiClient {
  return createApiClient({ ...options, readError: readReflexioError });
}

/** Reflexio's pending tool calls API as a question source. */
export function createReflexioSource(
  client: ApiClient,
  origin: QuestionOrigin = REFLEXIO_ORIGIN,
): QuestionSource {
  async function record(
    path: string,
    method: 'GET' | 'POST' | 'PATCH',
    body?: unknown,
    signal?: AbortSignal,
  ) {
    const data = await client.request(path, { method, body, signal });
    return toQuestion(parseResponse(pendingToolCallSchema(), data, { method, url: path }), origin);
  }

  return {
    key: `reflexio:${client.baseUrl}`,
    label: origin.label,
    async list({ status, limit }, signal) {
      const data = await client.request(BASE, { query: { status, limit }, signal });
      const parsed = parseResponse(pendingToolCallListSchema(), data, { method: 'GET', url: BASE });
      const list = parseQuestionList(parsed.pending_tool_calls ?? [], limit, origin);
      const version = copyVersion(parsed);
      return version === null ? list : { ...list, versions: { [origin.id]: version } };
    },
    async mapRecords(sourceId, records) {
      if (sourceId !== origin.id) return [];
      return parseQuestionList(
        records.map((item) => item.record),
        Number.POSITIVE_INFINITY,
        origin,
      ).questions;
    },
    unitOf: (id) => ({ sourceId: origin.id, unit: id }),
    get: (id, signal) => record(callPath(id), 'GET', undefined, signal),
    resolve: async (id, { result, validForSeconds }) =>
      record(
        callPath(id, 'resolve'),
        'POST',
        resolveBodySchema().parse({ result, valid_for_seconds: validForSeconds }),
      ),
    updateAnswer: async (id, { answer, validForSeconds }) =>
      record(
        callPath(id, 'answer'),
        'PATCH',
        answerBodySchema().parse({ answer, valid_for_seconds: validForSeconds }),
      ),
    markNotApplicable: async (id, { validForSeconds }) =>
      record(
        callPath(id, 'not_applicable'),
        'POST',
        notApplicableBodySchema().parse({ valid_for_seconds: validForSeconds }),
      ),
    cancel: (id) => record(callPath(id, 'cancel'), 'POST'),
  };
}
