import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { type RuntimeConfig, RuntimeConfigContext } from '@/config/runtime-config';
import { QuestionSourceContext } from '@/features/questions/api/source';
import { SessionContext } from '@/lib/session-store';
import { AppMantineProvider } from './mantine-provider';
import { createAppRouter } from './router';
import { createServices } from './services';

export function App({ config, baseUrl }: { config: RuntimeConfig; baseUrl: URL }) {
  const [services] = useState(() => createServices(config, baseUrl));
  const [router] = useState(() => createAppRouter(basenameOf(baseUrl)));
  return (
    <AppMantineProvider>
      <Notifications position="bottom-right" limit={4} />
      <QueryClientProvider client={services.queryClient}>
        <RuntimeConfigContext value={config}>
          <SessionContext value={services.session}>
            <QuestionSourceContext value={services.source}>
              <RouterProvider router={router} />
            </QuestionSourceContext>
          </SessionContext>
        </RuntimeConfigContext>
      </QueryClientProvider>
    </AppMantineProvider>
  );
}

export function basenameOf(baseUrl: URL): string {
  const path = baseUrl.pathname.replace(/\/+$/, '');
  return path === '' ? '/' : path;
}
