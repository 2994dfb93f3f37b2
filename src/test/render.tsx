import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '@/app/app';
import { appRoutes } from '@/app/router';
import { createServices } from '@/app/services';
import { type RuntimeConfig, runtimeConfigSchema } from '@/config/runtime-config';
import { createManualClock } from '@/lib/clock';
import { getMockApi, TEST_NOW, TEST_ORIGIN } from './mock-api';

export interface RenderAppOptions {
  route?: string;
  config?: Partial<RuntimeConfig>;
  seed?: 'demo' | 'empty';
  embed?: boolean;
}

/**
 * The whole portal at `route`, talking over HTTP (MSW) to a fresh mock backend, with a fresh
 * QueryClient (no retries), a memory router, and one manual clock shared by the portal and the mock.
 */
export function renderApp({
  route = '/questions',
  config: partial = {},
  seed,
  embed = false,
}: RenderAppOptions = {}) {
  const mock = getMockApi({ seed });
  const config = runtimeConfigSchema.parse({ pollIntervalMs: 600_000, ...partial });
  const services = createServices(config, new URL(`${TEST_ORIGIN}/`), { retries: false });
  const router = createMemoryRouter(appRoutes, { initialEntries: [route] });
  const clock = createManualClock(TEST_NOW);
  const shell = { embed, tokens: services.tokens };
  const user = userEvent.setup();
  const view = render(
    <AppProviders config={config} services={services} shell={shell} clock={clock} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  /** Moves the portal's clock and the mock's together. */
  const advance = (ms: number) => {
    act(() => {
      mock.clock.advance(ms);
      clock.advance(ms);
    });
  };
  return { ...view, router, services, clock, mock, user, advance, config };
}
