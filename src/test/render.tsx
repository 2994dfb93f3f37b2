import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { type Location, MemoryRouter, useLocation } from 'react-router';
import { AppProviders } from '@/app/app';
import { AppMantineProvider } from '@/app/mantine-provider';
import { AppRoutes } from '@/app/router';
import { createServices } from '@/app/services';
import { type RuntimeConfig, runtimeConfigSchema } from '@/config/runtime-config';
import { createManualClock } from '@/lib/clock';
import { clockTimers, TimersContext } from '@/lib/timers';
import { getMockApi, TEST_NOW, TEST_ORIGIN } from './mock-api';

/** Reports the memory router's location to the test. */
function LocationProbe({ onChange }: { onChange: (location: Location) => void }) {
  onChange(useLocation());
  return null;
}

export interface RenderAppOptions {
  route?: string;
  config?: Partial<RuntimeConfig>;
  seed?: 'demo' | 'empty';
  embed?: boolean;
}

/**
 * The whole portal at `route`, talking over HTTP (MSW) to a fresh mock backend, with a fresh
 * QueryClient (no retries), a memory router, and one manual clock shared by the portal and the mock
 * (countdowns, and delays such as the search debounce, move only when the test calls `advance`).
 */
export function renderApp({
  route = '/questions',
  config: partial = {},
  seed,
  embed = false,
}: RenderAppOptions = {}) {
  const mock = getMockApi({ seed });
  // Final actions go at once unless a test asks for their few seconds of undo (undoSeconds).
  const config = runtimeConfigSchema().parse({
    pollIntervalMs: 600_000,
    undoSeconds: 0,
    ...partial,
  });
  const services = createServices(config, new URL(`${TEST_ORIGIN}/`), { retries: false });
  let location: Location | null = null;
  /** Where the portal is: `router.state.location`, as with a data router. */
  const router = {
    get state() {
      if (!location) throw new Error('the router has not rendered yet');
      return { location };
    },
  };
  const clock = createManualClock(TEST_NOW);
  // Delays (the search debounce) run on the same manual clock: `advance` fires them.
  const timers = clockTimers(clock);
  const shell = { embed, tokens: services.tokens };
  const user = userEvent.setup();
  const view = render(
    <AppProviders config={config} services={services} shell={shell} clock={clock} env="test">
      <TimersContext value={timers}>
        <MemoryRouter initialEntries={[route]}>
          <LocationProbe
            onChange={(current) => {
              location = current;
            }}
          />
          <AppRoutes />
        </MemoryRouter>
      </TimersContext>
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

/** Clicks "Refresh now" once it is usable (it shows the first load's spinner until the toolbar catches up). */
export async function refreshNow(user: ReturnType<typeof userEvent.setup>) {
  const button = screen.getByRole('button', { name: 'Refresh now' });
  await waitFor(() => expect(button).toBeEnabled());
  await user.click(button);
}

/** `ui` in the portal's Mantine theme and nothing else: for shared components that need no app around them. */
export function renderInTheme(ui: ReactNode) {
  return render(<AppMantineProvider env="test">{ui}</AppMantineProvider>);
}
