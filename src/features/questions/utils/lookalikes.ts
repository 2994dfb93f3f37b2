import type { Question } from '../api/schemas';
import { sourceActionsOf } from './question-policy';

/** Trimmed, inner whitespace collapsed, lower-cased: how two asks of the same words compare. */
export function normalizeQuestionText(text: string): string {
  return text.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * What makes two questions the same question, or null when nothing can tell (they then stand
 * alone). Reflexio: same source, `scope_hash`, tool and `dedup_key`. Without a dedup key: the same
 * normalized text from the same scope or asker (Vertesia's agent, Bilby's conversation). Never
 * across scopes: the same words asked for two users can need two answers. A system whose askers
 * are interchangeable (Bilby's conversations, `lookalikesAcross`) groups the same text with the
 * same options from any of them.
 */
export function lookalikeKey(question: Question): string | null {
  const { source, scopeHash, dedupKey, asker, toolName } = question;
  if (scopeHash !== null && dedupKey !== null)
    return ['d', source.id, scopeHash, toolName, dedupKey].join('\u0000');
  if (scopeHash === null && asker === null) return null;
  const text = normalizeQuestionText(question.questionText);
  if (!text) return null;
  // Across askers (Bilby's conversations) only when the options match too.
  if (sourceActionsOf(question).lookalikesAcross)
    return [
      'o',
      source.id,
      toolName,
      text,
      normalizeQuestionText(JSON.stringify(question.prompts)),
    ].join('\u0000');
  return ['t', source.id, scopeHash ?? '', asker ?? '', toolName, text].join('\u0000');
}

/** Oldest ask first; ties by id, so the order is the same on every refresh. */
export function compareAsked(a: Question, b: Question): number {
  const at = (a.createdAt ?? 0) - (b.createdAt ?? 0);
  if (at !== 0) return at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export interface Lookalikes {
  /** One question per row, in the view's order: a group's first ask stands for it. */
  rows: Question[];
  /** A group's members (two or more, oldest ask first) by its first ask's id. */
  groups: ReadonlyMap<string, Question[]>;
  /** Every member's id to its group's first ask's id. */
  leadOf: ReadonlyMap<string, string>;
}

/**
 * Pending look-alikes as one row each: the group sits where its first member appears in the
 * view (so a sort by expiry puts it where its most urgent ask is), and is named by its oldest ask.
 * Closed questions are never grouped: each is its own record of what happened.
 */
export function groupLookalikes(questions: readonly Question[]): Lookalikes {
  return narrowLookalikes(lookalikeGroups(questions), questions);
}

/** The look-alike groups of a list: each group's first (oldest) ask's id to its members. */
export function lookalikeGroups(questions: readonly Question[]): ReadonlyMap<string, Question[]> {
  const byKey = new Map<string, Question[]>();
  for (const question of questions) {
    const key = question.status === 'pending' ? lookalikeKey(question) : null;
    if (key !== null) byKey.set(key, [...(byKey.get(key) ?? []), question]);
  }
  return groupsOf(byKey.values());
}

/**
 * The rows of `shown`, questions taken from the list `groups` were made from (all of it, or a
 * search or filter of it), with each group keeping the members that are shown. A keystroke on a
 * long list costs a look-up per row, not a normalized text per question (about 10 µs each: a
 * tenth of a second at 10,000).
 */
export function narrowLookalikes(
  groups: ReadonlyMap<string, Question[]>,
  shown: readonly Question[],
): Lookalikes {
  let kept = groups;
  if (groups.size > 0) {
    const inView = new Set(shown);
    kept = groupsOf(Array.from(groups.values(), (members) => members.filter((m) => inView.has(m))));
  }
  const leadOf = new Map<string, string>();
  for (const [lead, members] of kept) for (const member of members) leadOf.set(member.id, lead);
  const placed = new Set<string>();
  const rows = shown.flatMap((question) => {
    const lead = question.status === 'pending' ? leadOf.get(question.id) : undefined;
    if (lead === undefined) return [question];
    if (placed.has(lead)) return [];
    placed.add(lead);
    return (kept.get(lead) as Question[]).slice(0, 1);
  });
  return { rows, groups: kept, leadOf };
}

/** Groups of two asks or more, oldest first, by their oldest ask's id. */
function groupsOf(memberLists: Iterable<Question[]>): ReadonlyMap<string, Question[]> {
  const groups = new Map<string, Question[]>();
  for (const members of memberLists) {
    // The same id twice (a faulty server) is one ask, not two.
    if (new Set(members.map((m) => m.id)).size < 2) continue;
    members.sort(compareAsked);
    groups.set((members[0] as Question).id, members);
  }
  return groups;
}

/** "from 3 conversations", when a group spans several askers of a system that groups across them. */
export function askersSpanned(members: readonly Question[]): string | null {
  const noun = members[0] && sourceActionsOf(members[0]).lookalikesAcross;
  const askers = new Set(members.map((member) => member.asker)).size;
  return noun && askers > 1 ? `from ${askers} ${noun}` : null;
}
