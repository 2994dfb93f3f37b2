// A trail kept in memory: the static demo keeps it in IndexedDB between its workers.
import { entryMatches } from './query';
import type { AuditEntry, AuditOutcome, TrailStore } from './types';

type StoredEntry = Omit<AuditEntry, 'status' | 'detail' | 'asked'>;

/** What memoryTrail keeps, as plain data (IndexedDB stores it as is). */
export interface TrailSnapshot {
  entries: StoredEntry[];
  outcomes: AuditOutcome[];
  nextId: number;
}

export interface MemoryTrail extends TrailStore {
  snapshot(): TrailSnapshot;
  /** False when `saved` is not a snapshot (then the trail stays as it is). */
  restore(saved: unknown): boolean;
  clear(): void;
}

/**
 * A trail in memory, newest `maxEntries` kept (the oldest go first, as retention prunes them on
 * the server). `onChange` runs after every write, for whoever persists it.
 */
export function memoryTrail(
  options: {
    maxEntries?: number;
    onChange?: () => void;
    now?: () => number;
    /** What a question asked, where the trail's keeper knows it (the demo's mocks do). */
    askedOf?: (sourceId: string, questionId: string) => string | null;
  } = {},
): MemoryTrail {
  const maxEntries = options.maxEntries ?? 5000;
  const now = options.now ?? Date.now;
  let entries: StoredEntry[] = [];
  let outcomes = new Map<string, AuditOutcome>();
  let nextId = 1;
  const changed = () => options.onChange?.();

  return {
    async insertAttempts(attempts) {
      for (const attempt of attempts) {
        entries.push({
          id: nextId++,
          at: (attempt.at ?? new Date(now())).toISOString(),
          requestId: attempt.requestId,
          reviewer: attempt.reviewer,
          reviewerName: attempt.reviewerName,
          selfNamed: attempt.selfNamed ?? null,
          sourceId: attempt.sourceId,
          sourceKind: attempt.sourceKind,
          questionId: attempt.questionId,
          action: attempt.action,
          answer: attempt.answer,
          answerMode: attempt.answerMode,
          answerBytes: attempt.answerBytes ?? null,
          answerSha256: attempt.answerSha256 ?? null,
        });
      }
      if (entries.length > maxEntries) {
        const gone = entries.splice(0, entries.length - maxEntries);
        const kept = new Set(entries.map((entry) => entry.requestId));
        for (const entry of gone) if (!kept.has(entry.requestId)) outcomes.delete(entry.requestId);
      }
      changed();
    },
    async insertOutcome(outcome) {
      if (outcomes.has(outcome.requestId)) return;
      outcomes.set(outcome.requestId, { ...outcome });
      changed();
    },
    async listEntries(filter, page) {
      const found: AuditEntry[] = [];
      let more = false;
      for (let index = entries.length - 1; index >= 0; index--) {
        const stored = entries[index] as StoredEntry;
        if (page.cursor !== null && stored.id >= page.cursor) continue;
        const outcome = outcomes.get(stored.requestId);
        const entry: AuditEntry = {
          ...stored,
          // Entries a browser saved before these were kept.
          answerBytes: stored.answerBytes ?? null,
          answerSha256: stored.answerSha256 ?? null,
          asked: options.askedOf?.(stored.sourceId, stored.questionId) ?? null,
          status: outcome?.status ?? null,
          detail: outcome?.detail ?? null,
        };
        if (!entryMatches(entry, filter)) continue;
        if (found.length === page.limit) {
          more = true;
          break;
        }
        found.push(entry);
      }
      const last = found.at(-1);
      return { entries: found, nextCursor: more && last ? last.id : null };
    },
    snapshot: () => ({ entries: [...entries], outcomes: [...outcomes.values()], nextId }),
    restore(saved) {
      const value = saved as Partial<TrailSnapshot> | null;
      if (
        !value ||
        typeof value !== 'object' ||
        !Array.isArray(value.entries) ||
        !Array.isArray(value.outcomes) ||
        typeof value.nextId !== 'number'
      ) {
        return false;
      }
      entries = value.entries.filter(
        (entry) =>
          typeof entry === 'object' &&
          entry !== null &&
          typeof entry.id === 'number' &&
          typeof entry.requestId === 'string',
      );
      outcomes = new Map(value.outcomes.map((outcome) => [outcome.requestId, outcome]));
      nextId = Math.max(value.nextId, (entries.at(-1)?.id ?? 0) + 1);
      return true;
    },
    clear() {
      entries = [];
      outcomes = new Map();
      changed();
    },
  };
}
