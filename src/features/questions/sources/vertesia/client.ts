import { ApiError, isApiError, parseResponse } from '@/lib/api-client';
import { copyVersion } from '../copy-version';
import { type OnResponse, sendWire } from '../http';
import type { SourceList, SourceQuestion } from '../types';
import { mapAskList, mapPendingAsk } from './map';
import {
  buildVertesiaResponse,
  getAskRequest,
  listAsksRequest,
  resolveAskRequest,
  type VertesiaConfig,
} from './requests';
import { askListSchema, pendingAskSchema, readVertesiaError, resolveResponseSchema } from './wire';

export interface VertesiaClientOptions {
  sourceId: string;
  config: VertesiaConfig;
  fetchImpl?: typeof fetch;
  /** Told of every response: the server clock reads its `Date` header. */
  onResponse?: OnResponse;
}

/** Vertesia's pending asks: list (the whole project, no paging), get, resolve. */
export function createVertesiaClient({
  sourceId,
  config,
  fetchImpl,
  onResponse,
}: VertesiaClientOptions) {
  const send = (request: ReturnType<typeof listAsksRequest>, signal?: AbortSignal) =>
    sendWire(request, {
      readError: readVertesiaError,
      ...(fetchImpl ? { fetchImpl } : {}),
      ...(onResponse ? { onResponse } : {}),
      ...(signal ? { signal } : {}),
    });

  async function get(askId: string, signal?: AbortSignal): Promise<SourceQuestion> {
    const request = getAskRequest(config, askId);
    const data = await send(request, signal);
    return mapPendingAsk(sourceId, parseResponse(pendingAskSchema, data, request));
  }

  return {
    async list(signal?: AbortSignal): Promise<SourceList> {
      const request = listAsksRequest(config);
      const data = await send(request, signal).catch((error: unknown) => {
        // The list exists whatever the project holds: a 404 means a wrong API address.
        if (isApiError(error) && error.kind === 'not-found') {
          throw new ApiError({
            kind: 'bad-response',
            status: 404,
            method: request.method,
            url: request.url,
            code: error.code,
            message: 'The Vertesia API address answered HTTP 404.',
          });
        }
        throw error;
      });
      const list = mapAskList(sourceId, parseResponse(askListSchema, data, request).asks);
      const version = copyVersion(data);
      return version === null ? list : { ...list, version };
    },
    /** Asks the portal server's live stream sent, as the list maps them (unreadable ones left). */
    mapRecords(records: readonly unknown[]): SourceQuestion[] {
      return mapAskList(sourceId, records).questions;
    },
    get,
    /** Sends one answer per question as one `response`; then reads the ask back. */
    async resolve(ask: SourceQuestion, answers: readonly string[]): Promise<SourceQuestion> {
      const response = buildVertesiaResponse(
        ask.prompts.map((prompt) => prompt.text),
        answers,
      );
      const request = resolveAskRequest(config, ask.nativeId, response);
      const data = await send(request);
      const result = parseResponse(resolveResponseSchema, data, request);
      // HTTP 200 with `success: false` is a failure too.
      if (!result.success) {
        throw new ApiError({
          kind: 'server',
          status: 200,
          method: request.method,
          url: request.url,
          code: 'unsuccessful',
          detail: result.error || 'Vertesia did not accept the answer.',
        });
      }
      return get(ask.nativeId);
    },
  };
}
