import { createApiClient, parseResponse } from '@/lib/api-client';
import { type CsvFigure, type Insights, type InsightsQuery, insightsSchema } from './schemas';

/** The portal server's own API, next to the page (`<base>/portal-api/`). */
function portalApiRoot(): string {
  return new URL('portal-api/', document.baseURI).href;
}

function search(query: InsightsQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  return params;
}

export async function fetchInsights(query: InsightsQuery, signal?: AbortSignal): Promise<Insights> {
  const url = `insights?${search(query)}`;
  const data = await createApiClient({ baseUrl: portalApiRoot() }).request(url, { signal });
  return parseResponse(insightsSchema(), data, { method: 'GET', url });
}

/** The figure as CSV, over the same query the page shows. */
export function insightsCsvHref(query: InsightsQuery, figure: CsvFigure): string {
  const params = search(query);
  params.set('figure', figure);
  return `${portalApiRoot()}insights.csv?${params}`;
}
