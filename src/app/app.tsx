import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { RouterProvider } from 'react-router';
import { resolveEmbed } from '@/config/embed';
import { type RuntimeConfig, RuntimeConfigContext } from '@/config/runtime-config';
import { type Shell, ShellContext } from '@/config/shell-context';
import { QuestionSourceContext } from '@/features/questions/api/source';
import { type Clock, ClockContext, createIntervalClock } from '@/lib/clock';
import { SessionContext } from '@/lib/session-store';
import { AppMantineProvider } from './mantine-provider';
import { createAppRouter } from './router';
import { createServices, type Services } from './services';

export interface AppProvidersProps {
  config: RuntimeConfig;
  services: Services;
  shell: Shell;
  clock: Clock;
  env?: 'default' | 'test';
  children: ReactNode;
}

/** Everything the routes need; the app and the tests build the same tree. */
export function AppProviders({ config, services, shell, clock, env, children }: AppProvidersProps) {
  return (
    <AppMantineProvider env={env}>
      <Notifications position="bottom-right" limit={4} />
      <QueryClientProvider client={services.queryClient}>
        <RuntimeConfigContext value={config}>
          <SessionContext value={services.session}>
            <ShellContext value={shell}>
              <QuestionSourceContext value={services.source}>
                <ClockContext value={clock}>{children}</ClockContext>
              </QuestionSourceContext>
            </ShellContext>
          </SessionContext>
        </RuntimeConfigContext>
      </QueryClientProvider>
    </AppMantineProvider>
  );
}

export function App({ config, baseUrl }: { config: RuntimeConfig; baseUrl: URL }) {
  const [services] = useState(() => createServices(config, baseUrl));
  const [router] = useState(() => createAppRouter(basenameOf(baseUrl)));
  const [clock] = useState(() => createIntervalClock());
  const [shell] = useState(() => ({
    embed: resolveEmbed(config.embed, window.location.search),
    tokens: services.tokens,
  }));
  return (
    <AppProviders config={config} services={services} shell={shell} clock={clock}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

export function basenameOf(baseUrl: URL): string {
  const path = baseUrl.pathname.replace(/\/+$/, '');
  return path === '' ? '/' : path;
}
