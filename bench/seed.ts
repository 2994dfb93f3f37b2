// The bench tenant: 500 pending questions plus the usual mix of answered, edited, not applicable,
// cancelled and expired ones, all through the mock's control routes (as agents and as another
// reviewer would), never by reaching into the mock's store.
import { TENANT_HEADER } from '../mock/app.ts';

/** The tenant `npm run bench` measures (and bench/heap-kinds.ts with it). */
export const BENCH_TENANT = 'bench';
export const PENDING_COUNT = 500;
const OTHER_COUNT = 60;
const BATCH = 50;

export async function control(
  origin: string,
  tenant: string,
  route: string,
  body: unknown = {},
  /** The identity a server with REVIEWER_HEADER needs on a write, the mock's included. */
  headers: Record<string, string> = {},
): Promise<unknown> {
  const response = await fetch(`${origin}/__mock/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [TENANT_HEADER]: tenant, ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`POST /__mock/${route}: HTTP ${response.status} ${await response.text()}`);
  }
  return response.json();
}

/** An agent asks: the new question's id. */
export async function ask(
  origin: string,
  tenant: string,
  question: object,
  headers: Record<string, string> = {},
): Promise<string> {
  const created = (await control(origin, tenant, 'questions', question, headers)) as {
    call: { id: string };
  };
  return created.call.id;
}

export function pendingQuestion(i: number) {
  return {
    question: `Benchmark question ${i}: should deployment ${i} of service-${i % 37} go to ${i % 2 ? 'staging' : 'production'}? ${'Context. '.repeat(i % 12)}`,
    answer_format: i % 3 ? 'yes/no' : null,
    tags: [`team-${i % 9}`, i % 4 ? 'infra' : 'billing'],
    user_id: `user${i % 23}@example.com`,
    expires_in_seconds: 120 + i * 97,
  };
}

async function inBatches<T, R>(items: T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += BATCH) {
    results.push(...(await Promise.all(items.slice(start, start + BATCH).map(run))));
  }
  return results;
}

/** Empties the tenant and fills it; returns the pending ids, soonest to expire first. */
export async function seedBenchTenant(origin: string, tenant: string): Promise<string[]> {
  await control(origin, tenant, 'reset', { seed: 'empty' });
  const indexes = (count: number) => Array.from({ length: count }, (_, i) => i);

  // Settled ones first, so the pending ones are the newest, as in a live inbox.
  const others = await inBatches(indexes(OTHER_COUNT), async (i) => {
    const deploy = i % 6 === 5;
    const id = await ask(origin, tenant, {
      question: `Earlier question ${i}: which region should batch job ${i} run in?`,
      answer_format: deploy ? null : 'one of: eu-west-1, us-east-1',
      tags: [`team-${i % 9}`, 'earlier'],
      user_id: `user${i % 23}@example.com`,
      expires_in_seconds: 3600,
      ...(deploy
        ? { tool_name: 'approve_deployment', args: { service: `batch-${i}`, target: 'staging' } }
        : {}),
    });
    return { id, i };
  });
  await inBatches(others, async ({ id, i }) => {
    switch (i % 6) {
      case 0:
        return control(origin, tenant, `questions/${id}/resolve`, { answer: 'eu-west-1' });
      case 1:
        await control(origin, tenant, `questions/${id}/resolve`, { answer: 'eu-west-1' });
        return control(origin, tenant, `questions/${id}/answer`, { answer: 'us-east-1' });
      case 2:
        return control(origin, tenant, `questions/${id}/not_applicable`);
      case 3:
        return control(origin, tenant, `questions/${id}/cancel`);
      case 4:
        return control(origin, tenant, `questions/${id}/expire`);
      default:
        return control(origin, tenant, `questions/${id}/resolve`, {
          result: { approved: true, by: 'another reviewer' },
        });
    }
  });

  return inBatches(indexes(PENDING_COUNT), (i) => ask(origin, tenant, pendingQuestion(i)));
}
