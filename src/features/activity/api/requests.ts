import { createApiClient, isNoPortalServer, parseResponse } from '@/lib/api-client';
import {
  type ActivityFilter,
  type ActivityPage,
  activityPageSchema,
  type Me,
  meSchema,
} from './schemas';

/** The portal server's own API, next to the page (`<base>/portal-api/`). */
export function portalApiRoot(): string {
  return new URL('portal-api/', document.baseURI).href;
}

const client = () => createApiClient({ baseUrl: portalApiRoot() });

export function activitySearch(
  filter: ActivityFilter,
  page: { cursor?: number | null; limit?: number } = {},
) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (Array.isArray(value)) for (const item of value) params.append(key, item);
    else if (typeof value === 'string' && value !== '') params.set(key, value);
  }
  if (page.cursor) params.set('cursor', String(page.cursor));
  if (page.limit) params.set('limit', String(page.limit));
  return params;
}

/** Who the portal server says is acting; null where there is no portal server (a static host). */
export async function fetchMe(): Promise<Me | null> {
  try {
    const data = await client().request('me');
    return parseResponse(meSchema(), data, { method: 'GET', url: 'portal-api/me' });
  } catch (error) {
    // nginx or a static host answers 404 (or its index page): no trail here.
    if (isNoPortalServer(error)) return null;
    throw error;
  }
}

export async function fetchActivity(
  filter: ActivityFilter,
  page: { cursor?: number | null; limit?: number },
  signal?: AbortSignal,
): Promise<ActivityPage> {
  const url = `activity?${activitySearch(filter, page)}`;
  const data = await client().request(url, { signal });
  return parseResponse(activityPageSchema(), data, { method: 'GET', url });
}

export function activityCsvHref(filter: ActivityFilter): string {
  return `${portalApiRoot()}activity.csv?${activitySearch(filter)}`;
}
