import { type ComponentType, createContext, use } from 'react';
import type { TokenStore } from '@/config/token-store';

export interface Shell {
  /** Compact view without the app header (embedded in another portal). */
  embed: boolean;
  tokens: TokenStore;
  /** The audit trail's parts the questions feature shows (lazily loaded; absent in its tests). */
  audit?: AuditParts;
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
  /** "by alice" on a row its reviewers closed. */
  ActedBy: Part<{ question: AuditSubject }>;
}

export const ShellContext = createContext<Shell | null>(null);

export function useShell(): Shell {
  const shell = use(ShellContext);
  if (!shell) throw new Error('useShell needs a ShellContext provider');
  return shell;
}
