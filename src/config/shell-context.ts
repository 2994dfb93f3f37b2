import { createContext, use } from 'react';
import type { TokenStore } from '@/config/token-store';

export interface Shell {
  /** Compact view without the app header (embedded in another portal). */
  embed: boolean;
  tokens: TokenStore;
}

export const ShellContext = createContext<Shell | null>(null);

export function useShell(): Shell {
  const shell = use(ShellContext);
  if (!shell) throw new Error('useShell needs a ShellContext provider');
  return shell;
}
