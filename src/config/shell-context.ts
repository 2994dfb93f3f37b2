import { type ComponentType, createContext, use } from 'react';
import type { TokenStore } from '@/config/token-store';

export interface Shell {
  /** Compact view without the app header (embedded in another portal). */
  embed: boolean;
  tokens: TokenStore;
  /** The audit trail's parts the questions feature shows (lazily loaded; absent in its tests). */
  audit?: AuditParts;
  /** Presence and claims (lazily loaded after the list; absent in the questions feature's tests). */
  team?: TeamParts;
  /** The team's saved answers in the answer box (lazily loaded; absent in the questions feature's tests). */
  snippets?: SnippetParts;
}

/** A question as the trail's parts need it. */
export interface AuditSubject {
  id: string;
  status: string;
  source: { id: string; kind: string };
}

/** A lazily loaded component (lazyPart): rendered inside a LoadBoundary, which retries it. */
type Part<P> = ComponentType<P> & { retry(): void };

export interface AuditParts {
  /** The drawer's "History" of a question, or of each member of a look-alike group. */
  History: Part<{ questions: readonly AuditSubject[] }>;
  /** "by alice" on a row its reviewers closed; on a pending row, who is on it (presence, claims). */
  ActedBy: Part<{ question: AuditSubject }>;
}

export const ShellContext = createContext<Shell | null>(null);

export function useShell(): Shell {
  const shell = use(ShellContext);
  if (!shell) throw new Error('useShell needs a ShellContext provider');
  return shell;
}

/**
 * A picker a lazily loaded part asks the list's toolbar to draw beside its own (the toolbar owns
 * how pickers look: the part then needs none of their code).
 */
export interface PickerSpec {
  label: string;
  /** The first, empty choice. */
  any: string;
  values: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  testId?: string;
  /** Drawn, but not usable yet: its place is kept while its part loads. */
  disabled?: boolean;
}

/**
 * Where the team's part is shown: a row's label, the drawer's panel, the Claimed filter among the
 * list's pickers, or Claim in the bar of selected questions.
 */
export type TeamPlace =
  | { row: AuditSubject }
  | {
      drawer: AuditSubject;
      /** The other asks of its look-alike group: Claim and Release take them along. */
      also?: readonly AuditSubject[];
    }
  | {
      /** Takes an updater (a state setter): the Claimed filter's predicate, or null. */
      onKeep: (update: () => ((question: AuditSubject) => boolean) | null) => void;
      /** The Claimed picker for the toolbar to draw among its own, or null to draw none. */
      onPicker: (picker: PickerSpec | null) => void;
    }
  | { selected: readonly AuditSubject[] };

export interface TeamParts {
  /**
   * One part for every place ("alice viewing" on a row; who else is on the open question and
   * Claim / Release in the drawer; the Claimed filter and Claim for the selected rows).
   */
  Team: Part<TeamPlace>;
}

/**
 * Dispatched on `document` before an answer is sent, cancelable; `detail`: the question's `id`,
 * its `source` id and `go()`, which sends it. Whoever cancels it (the team's part, to ask
 * whether to answer a question someone else holds) calls `go` if the reviewer still wants to.
 */
export const ANSWER_EVENT = 'questions-inbox:answer';
export interface AnswerEventDetail {
  id: string;
  source: string;
  go: () => void;
}

/**
 * Dispatched on `document` by a bulk action before it asks the reviewer: the team's part (when
 * loaded) fills `holders` with the questions someone else has claimed, and who (a short name),
 * so that the confirmation can say so, as the drawer asks before answering one.
 */
export const HOLDERS_EVENT = 'questions-inbox:holders';
export interface HoldersEventDetail {
  questions: readonly AuditSubject[];
  holders: Map<AuditSubject, string>;
}

/** The answer box the team's snippets are offered in. */
export interface SnippetPlace {
  question: AuditSubject & { tags: readonly string[] };
  /** The box's text now: what "Save as snippet" starts from. */
  currentText: () => string;
  /** Puts a snippet's text into the box at the cursor, keeping what is typed there. */
  insert: (text: string) => void;
  /** The box takes nothing now (an answer on its way). */
  disabled?: boolean;
}

export interface SnippetParts {
  /** "Team snippets" (offered for this system, its tags first) and "Save as snippet". */
  Snippets: Part<SnippetPlace>;
}
