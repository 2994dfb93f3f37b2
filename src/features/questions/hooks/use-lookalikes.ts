import { createContext, use, useMemo, useState } from 'react';
import type { Question } from '../api/schemas';
import { compareAsked, groupLookalikes, type Lookalikes } from '../utils/lookalikes';

/** The view's rows with pending look-alikes grouped, and the ids j/k step through. */
export function useLookalikes(visible: Question[]): Lookalikes & { rowIds: string[] } {
  const lookalikes = useMemo(() => groupLookalikes(visible), [visible]);
  const rowIds = useMemo(() => lookalikes.rows.map((q) => q.id), [lookalikes]);
  return { ...lookalikes, rowIds };
}

/** The group open in the drawer (`/questions/<id>?asks=all`), for the drawer's group parts. */
export interface OpenGroup {
  /** The open question's id: the group is shown around it. */
  openId: string;
  /** Every ask the group has had while open, oldest first (answered ones stay, with their results). */
  members: Question[];
  /** After a group action: the asks that failed stay ticked, the others are unticked. */
  keepSelected: (memberIds: readonly string[], failedIds: readonly string[]) => void;
}

export const OpenGroupContext = createContext<OpenGroup | null>(null);

export function useOpenGroup(): OpenGroup | null {
  return use(OpenGroupContext);
}

/** `current` with the asks of `kept` it no longer has (answered: they left the pending view). */
function mergeMembers(kept: Question[], current: Question[]): Question[] {
  const ids = new Set(current.map((q) => q.id));
  const gone = kept.filter((q) => !ids.has(q.id));
  if (gone.length === 0) return current;
  return [...current, ...gone].sort(compareAsked);
}

function sameMembers(a: Question[], b: Question[]): boolean {
  return a.length === b.length && a.every((q, index) => q === b[index]);
}

/**
 * The members of the group open at `openId`, kept while it stays open: answering the group takes
 * its asks out of the pending view (and so out of the grouping), and the drawer must still show
 * what happened to each. Null when no group is asked for, or the open question is in none.
 */
export function useStickyGroup(
  openId: string | undefined,
  groupOpen: boolean,
  lookalikes: Lookalikes,
): Question[] | null {
  const lead = openId !== undefined && groupOpen ? lookalikes.leadOf.get(openId) : undefined;
  const current = lead === undefined ? undefined : lookalikes.groups.get(lead);
  const [kept, setKept] = useState<{ openId: string; members: Question[] } | null>(null);
  if (openId !== undefined && groupOpen && current) {
    const members = kept?.openId === openId ? mergeMembers(kept.members, current) : current;
    if (kept?.openId !== openId || !sameMembers(kept.members, members))
      setKept({ openId, members });
  }
  if (openId === undefined || !groupOpen || kept?.openId !== openId) return null;
  return kept.members;
}
