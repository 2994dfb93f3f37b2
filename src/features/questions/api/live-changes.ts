import type { QueryClient } from '@tanstack/react-query';
import { upsertIntoList } from './cache';
import { type ListKey, questionKeys } from './queries';
import type { Question, QuestionList } from './schemas';
import type { LiveRecord, QuestionSource } from './source';

/**
 * One change of the portal server's copy of a system, as its live stream sends it: the records
 * new or changed and those gone, or (a change too large for the stream, or changes this server
 * missed) "read the list again".
 */
export interface ListsChange {
  source: string;
  version: number;
  units?: LiveRecord[];
  removed?: string[];
  reload?: boolean;
}

/** A stream message, read leniently: null for anything that is not a change. */
export function readListsChange(text: unknown): ListsChange | null {
  if (typeof text !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const change = value as Partial<ListsChange> | null;
  if (
    !change ||
    typeof change.source !== 'string' ||
    typeof change.version !== 'number' ||
    !Number.isSafeInteger(change.version)
  ) {
    return null;
  }
  const units = Array.isArray(change.units)
    ? change.units.filter(
        (unit): unit is LiveRecord =>
          typeof unit === 'object' && unit !== null && typeof unit.id === 'string',
      )
    : [];
  const removed = Array.isArray(change.removed)
    ? change.removed.filter((id): id is string => typeof id === 'string')
    : [];
  return {
    source: change.source,
    version: change.version,
    units,
    removed,
    ...(change.reload === true ? { reload: true } : {}),
  };
}

/**
 * What one list becomes with `change`: the questions of the records it names replaced by `mapped`
 * (a Bilby conversation's answered question leaves with it), each where its status belongs; its
 * version moves on. A list that missed a version is left for a read (`stale`).
 */
export function applyToList(
  list: QuestionList,
  key: ListKey,
  change: ListsChange,
  mapped: readonly Question[],
  unitOf: (id: string) => { sourceId: string; unit: string } | null,
): QuestionList | 'stale' | null {
  const had = list.versions?.[change.source];
  if (had !== undefined && had >= change.version) return null;
  if (had !== undefined && had < change.version - 1) return 'stale';
  const touched = new Set([
    ...(change.units ?? []).map((unit) => unit.id),
    ...(change.removed ?? []),
  ]);
  const keep = new Set(mapped.map((question) => question.id));
  let next: QuestionList = {
    ...list,
    questions: list.questions.filter((question) => {
      if (keep.has(question.id)) return true;
      const unit = unitOf(question.id);
      return !(unit && unit.sourceId === change.source && touched.has(unit.unit));
    }),
  };
  for (const question of mapped) next = upsertIntoList(next, key, question);
  return { ...next, versions: { ...list.versions, [change.source]: change.version } };
}

/**
 * Applies one change of the server's copy to every cached list and to the open questions' own
 * entries. A list it cannot follow (a version missed, or "read the list again") is read again.
 */
export async function applyListsChange(
  queryClient: QueryClient,
  source: QuestionSource,
  change: ListsChange,
): Promise<void> {
  const lists = queryClient.getQueriesData<QuestionList>({ queryKey: questionKeys.lists() });
  if (change.reload || !source.mapRecords || !source.unitOf) {
    await queryClient.invalidateQueries({ queryKey: questionKeys.lists() });
    return;
  }
  const mapped = await source.mapRecords(change.source, change.units ?? []);
  const unitOf = (id: string) => source.unitOf?.(id) ?? null;
  const stale: ListKey[] = [];
  // Read again after the await: a list may have changed meanwhile.
  for (const [queryKey] of lists) {
    const list = queryClient.getQueryData<QuestionList>(queryKey);
    if (!list) continue;
    const key = queryKey[2] as ListKey;
    const next = applyToList(list, key, change, mapped, unitOf);
    if (next === 'stale') stale.push(key);
    else if (next) queryClient.setQueryData(queryKey, next);
  }
  for (const question of mapped) {
    if (queryClient.getQueryData(questionKeys.detail(question.id)) !== undefined) {
      queryClient.setQueryData(questionKeys.detail(question.id), question);
    }
  }
  await Promise.all(
    stale.map((key) =>
      queryClient.invalidateQueries({ queryKey: questionKeys.list(key), exact: true }),
    ),
  );
}
