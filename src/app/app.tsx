import type { MantineColorSchemeManager } from '@mantine/core';
import { notificationsStore } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { BrowserRouter, HashRouter } from 'react-router';
import { LoadBoundary, lazyPart } from '@/components/load-boundary';
import { resolveEmbed } from '@/config/embed';
import { type RuntimeConfig, RuntimeConfigContext } from '@/config/runtime-config';
import { type Shell, ShellContext } from '@/config/shell-context';
import { QuestionSourceContext } from '@/features/questions/api/source';
import { type Clock, ClockContext, createServerClock } from '@/lib/clock';
import {
  type FirstScreenState,
  type ServerView,
  ServerViewContext,
  serverViewOf,
} from '@/lib/first-screen';
import { whenIdleAfterFirstScreen, whenReviewerActs } from '@/lib/idle';
import { SessionContext } from '@/lib/session-store';
import { auditParts, snippetParts, teamParts } from './audit-parts';
import { AppMantineProvider } from './mantine-provider';
import { AppRoutes } from './router';
import type { Services } from './services';

export interface AppProvidersProps {
  config: RuntimeConfig;
  services: Services;
  shell: Shell;
  clock: Clock;
  env?: 'default' | 'test';
  /** What the server's render assumed (its HTML is being hydrated, or it is the server). */
  serverView?: ServerView | null;
  colorSchemeManager?: MantineColorSchemeManager;
  children: ReactNode;
}

const NotificationsHost = lazyPart(() => import('./notifications-host').then((m) => m.default));

/**
 * Loads the toasts' code with the first toast, or at the reviewer's first input once the page is
 * idle (so that the toast after an action shows at once); a toast shown before it is here waits
 * in the store. A tab left open and untouched that shows none never runs it (0.04 MB of its heap,
 * measured).
 */
function DeferredNotifications() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const want = () => setWanted(true);
    const waiting = () => {
      const { notifications, queue } = notificationsStore.getState();
      if (notifications.length + queue.length > 0) want();
    };
    waiting();
    const unsubscribe = notificationsStore.subscribe(waiting);
    let stopInput = () => {};
    const stopIdle = whenIdleAfterFirstScreen(() => {
      stopInput = whenReviewerActs(want);
    });
    return () => {
      unsubscribe();
      stopIdle();
      stopInput();
    };
  }, []);
  return wanted ? (
    <LoadBoundary what="Notifications" parts={[NotificationsHost]} quiet>
      <NotificationsHost />
    </LoadBoundary>
  ) : null;
}

/** Everything the routes need; the app and the tests build the same tree. */
export function AppProviders({
  config,
  services,
  shell,
  clock,
  env,
  serverView = null,
  colorSchemeManager,
  children,
}: AppProvidersProps) {
  return (
    <AppMantineProvider env={env} colorSchemeManager={colorSchemeManager}>
      <DeferredNotifications />
      <QueryClientProvider client={services.queryClient}>
        <RuntimeConfigContext value={config}>
          <SessionContext value={services.session}>
            <ShellContext value={shell}>
              <QuestionSourceContext value={services.source}>
                <ClockContext value={clock}>
                  <ServerViewContext value={serverView}>{children}</ServerViewContext>
                </ClockContext>
              </QuestionSourceContext>
            </ShellContext>
          </SessionContext>
        </RuntimeConfigContext>
      </QueryClientProvider>
    </AppMantineProvider>
  );
}

export function App({
  config,
  baseUrl,
  services,
  firstScreen = null,
  onFirstCommit,
}: {
  config: RuntimeConfig;
  baseUrl: URL;
  services: Services;
  /** The server rendered the page: the first render says what its HTML says (main.tsx). */
  firstScreen?: FirstScreenState | null;
  /** Called once the first render is on the page (hydrated, where the server rendered it). */
  onFirstCommit?: () => void;
}) {
  const firstCommit = useRef(onFirstCommit);
  useEffect(() => firstCommit.current?.(), []);
  const [clock] = useState(() =>
    createServerClock(
      services.serverTime,
      1000,
      firstScreen ? { at: firstScreen.now, offsets: firstScreen.offsets } : undefined,
    ),
  );
  const [serverView] = useState(() => (firstScreen ? serverViewOf(firstScreen) : null));
  const [shell] = useState(() => ({
    embed: firstScreen?.embed ?? resolveEmbed(config.embed, window.location.search),
    tokens: services.tokens,
    audit: auditParts,
    team: teamParts,
    snippets: snippetParts,
  }));
  return (
    <AppProviders
      config={config}
      services={services}
      shell={shell}
      clock={clock}
      serverView={serverView}
    >
      {/* A navigation renders at the priority of what caused it: a click on a row renders the
          question in one pass, not in 5 ms slices of a transition with frames between them
          (click → drawer painted). Lazily loaded parts are preloaded and render without
          suspending (lazyPart), so no fallback flashes in between. */}
      {config.links === 'hash' ? (
        <HashRouter useTransitions={false}>
          <AppRoutes />
        </HashRouter>
      ) : (
        <BrowserRouter basename={basenameOf(baseUrl)} useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
      )}
    </AppProviders>
  );
}

export function basenameOf(baseUrl: URL): string {
  const path = baseUrl.pathname.replace(/\/+$/, '');
  return path === '' ? '/' : path;
}
