import { type MantineColorSchemeManager, MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { theme } from './theme';

/**
 * Mantine without its injected <style> tags: the same CSS ships as `theme.generated.css`, so the
 * portal runs under a Content-Security-Policy with `style-src 'self'`.
 */
export function AppMantineProvider({
  children,
  env,
  colorSchemeManager,
}: {
  children: ReactNode;
  env?: 'default' | 'test';
  /** The server's render: the reviewer's cookie, not localStorage (entry-server.tsx). */
  colorSchemeManager?: MantineColorSchemeManager;
}) {
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      withCssVariables={false}
      withGlobalClasses={false}
      env={env}
      colorSchemeManager={colorSchemeManager}
    >
      {children}
    </MantineProvider>
  );
}
