import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInTheme } from '@/test/render';
import { LoadBoundary, lazyPart, QUIET_RETRY_MS } from './load-boundary';

/** A lazily loaded part whose first `failures` downloads fail. */
function flakyPart(failures: number) {
  let calls = 0;
  const load = vi.fn(async () => {
    calls += 1;
    if (calls <= failures) throw new TypeError('Failed to fetch dynamically imported module');
    return () => <p>Part loaded</p>;
  });
  return { Part: lazyPart(load), load };
}

function setOnline(online: boolean) {
  vi.spyOn(Object.getPrototypeOf(navigator) as Navigator, 'onLine', 'get').mockReturnValue(online);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('LoadBoundary', () => {
  it('renders a part loaded ahead at once, without suspending first', async () => {
    const { Part } = flakyPart(0);
    await Part.load();
    renderInTheme(
      <LoadBoundary what="The question view" parts={[Part]}>
        <Part />
      </LoadBoundary>,
    );
    // In the same render: no fallback, no second pass a task later.
    expect(screen.getByText('Part loaded')).toBeInTheDocument();
  });

  it('keeps the part’s place with its placeholder while its code loads', async () => {
    const { Part } = flakyPart(0);
    renderInTheme(
      <LoadBoundary what="Claims" parts={[Part]} quiet placeholder={<p>Its place</p>}>
        <Part />
      </LoadBoundary>,
    );
    expect(screen.getByText('Its place')).toBeInTheDocument();
    expect(await screen.findByText('Part loaded')).toBeInTheDocument();
    expect(screen.queryByText('Its place')).not.toBeInTheDocument();
  });

  it('says a part could not be downloaded, and Try again loads it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { Part } = flakyPart(1);
    renderInTheme(
      <LoadBoundary what="The question view" parts={[Part]}>
        <Part />
      </LoadBoundary>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The question view could not be downloaded',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Part loaded')).toBeInTheDocument();
  });

  it('tries a quiet part again by itself when it failed while online', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setOnline(true);
    const { Part, load } = flakyPart(1);
    render(
      <LoadBoundary what="Notifications" parts={[Part]} quiet>
        <Part />
      </LoadBoundary>,
    );
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    expect(screen.queryByText('Part loaded')).not.toBeInTheDocument();
    expect(
      await screen.findByText('Part loaded', {}, { timeout: QUIET_RETRY_MS + 2000 }),
    ).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('tries a part again when the connection comes back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setOnline(false);
    const { Part, load } = flakyPart(1);
    renderInTheme(
      <LoadBoundary what="The question view" parts={[Part]}>
        <Part />
      </LoadBoundary>,
    );
    await screen.findByRole('alert');
    expect(load).toHaveBeenCalledTimes(1);
    setOnline(true);
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByText('Part loaded')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
