import { createContext, use, useMemo } from 'react';
import type { Question } from '../api/schemas';
import { type Lookalikes, lookalikeGroups, narrowLookalikes } from '../utils/lookalikes';

/**
 * The view's rows with pending look-alikes grouped, and the ids j/k step through. `visible` is
 * taken from `whole` (the view's list before search and filters): that is grouped when it arrives,
 * and each search or filter keeps what is shown of its groups.
 */
export function useLookalikes(
  visible: Question[],
  whole: readonly Question[],
): Lookalikes & { rowIds: string[] } {
  const wholeGroups = useMemo(() => lookalikeGroups(whole), [whole]);
  const lookalikes = useMemo(() => narrowLookalikes(wholeGroups, visible), [wholeGroups, visible]);
  const rowIds = useMemo(() => lookalikes.rows.map((q) => q.id), [lookalikes]);
  return { ...lookalikes, rowIds };
}

/** What the drawer needs to show a group (`/questions/<id>?asks=all`): see useLookalikeGroup. */
export interface LookalikesInView {
  lookalikes: Lookalikes;
  /** The address asks for the open question's group. */
  groupOpen: boolean;
  /** Ticks or unticks asks in the list's selection. */
  setSome: (ids: readonly string[], on: boolean) => void;
}

export const LookalikesContext = createContext<LookalikesInView | null>(null);

export function useLookalikesInView(): LookalikesInView | null {
  return use(LookalikesContext);
}
