import { demoIds } from '@mock/seed';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { askCount, listRows, mockCall, rowOf } from '@/test/inbox';
import { getMockApi, mockControl } from '@/test/mock-api';
import { refreshNow, renderApp } from '@/test/render';

describe('the list', () => {
  it('shows pending questions by default, soonest expiry first, with counts per status', async () => {
    renderApp();
    const items = await listRows();
    expect(items[0]).toHaveAttribute('data-question-id', demoIds.pendingSoonest);
    // The Pending view shows one status: its rows leave the badge out.
    expect(within(items[0] as HTMLElement).queryByText('Pending')).not.toBeInTheDocument();
    expect(within(items[0] as HTMLElement).getByText('expires in 2m 00s')).toBeInTheDocument();
    const status = screen.getByRole('radiogroup', { name: 'Status' });
    await waitFor(() => expect(within(status).getByText(/^Pending \d+$/)).toBeInTheDocument());
    const pendingCount = Number(
      within(status)
        .getByText(/^Pending \d+$/)
        .textContent?.split(' ')[1],
    );
    // The demo's three look-alike asks are one row.
    expect(pendingCount).toBe(askCount(items));
    expect(items.length).toBe(pendingCount - 2);
    // "All" counts the list that loads once the first rows are on screen.
    await waitFor(() => expect(within(status).getByText(/^All \d+$/)).toBeInTheDocument());
    // The tab's title counts them too, once the list is on screen and the browser is idle.
    await waitFor(() => expect(document.title).toBe(`(${pendingCount}) Expiring soon · Questions`));
  });

  it('paints the rows that fit on screen first, the rest a moment later, and keeps rows a refresh leaves', async () => {
    // The rows in the page at each change, from before the list arrives.
    const seen: number[] = [];
    const observer = new MutationObserver(() => {
      seen.push(document.querySelectorAll('[data-question-id]').length);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    const { user } = renderApp();
    const items = await listRows();
    observer.disconnect();
    const fit = Math.ceil(window.innerHeight / 100);
    expect(items.length).toBeGreaterThan(fit);
    // The first rows' commit held only a screenful; the list said it was busy until the rest came.
    expect(seen.find((count) => count > 0)).toBe(fit);
    expect(screen.getByRole('list', { name: 'Questions' })).not.toHaveAttribute('aria-busy');

    // A refresh with one more question: the rows already in the page stay the same elements, the
    // last one (off screen) included, instead of being taken out and built again.
    const last = items.at(-1) as HTMLElement;
    await mockControl('questions', {
      question: 'Is the staging database safe to restart?',
      expires_in_seconds: 60,
    });
    await refreshNow(user);
    await waitFor(async () => expect(await listRows()).toHaveLength(items.length + 1));
    expect(last.isConnected).toBe(true);
  });

  it('keeps every filter in the URL and reads them back', async () => {
    const { user, router, advance } = renderApp();
    await listRows();
    await user.click(screen.getByRole('radio', { name: /^Resolved/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=resolved'));
    expect(rowOf(demoIds.resolved)).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'replica lag');
    advance(200);
    await waitFor(() =>
      expect(router.state.location.search).toBe('?status=resolved&q=replica+lag'),
    );
    await waitFor(async () => expect(await listRows()).toHaveLength(1));

    await user.click(screen.getByRole('radio', { name: /^Pending/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=replica+lag'));
    expect(await screen.findByText('No questions match these filters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('opens the same view from a pasted link, and ignores invalid parameters', async () => {
    renderApp({ route: '/questions?status=all&tag=billing&sort=newest' });
    const items = await listRows();
    expect(items.length).toBeGreaterThan(1);
    for (const item of items) expect(within(item).getByText('billing')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /^All/ })).toBeChecked();
  });

  it('gives each row a real link to its question, opened in the app on a plain click only', async () => {
    const { user, router } = renderApp({ route: '/questions?status=all&sort=newest' });
    await listRows();
    const link = rowOf(demoIds.pendingSoonest).querySelector<HTMLAnchorElement>('a[data-row-link]');
    if (!link) throw new Error('the row has no link');
    // Open in a new tab, copy link: the href is the question, with the list's view kept.
    expect(link.getAttribute('href')).toBe(
      `/questions/${encodeURIComponent(demoIds.pendingSoonest)}?status=all&sort=newest`,
    );
    // A click with a modifier key is the browser's (new tab or window), not the app's.
    await user.keyboard('{Control>}');
    await user.click(link);
    await user.keyboard('{/Control}');
    expect(router.state.location.pathname).toBe('/questions');
    await user.click(link);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(
        `/questions/${encodeURIComponent(demoIds.pendingSoonest)}`,
      ),
    );
    expect(router.state.location.search).toBe('?status=all&sort=newest');
    expect(router.state.location.state).toEqual({ fromList: true });
  });

  it('falls back to defaults for parameters it does not know', async () => {
    renderApp({ route: '/questions?status=%3Cscript%3E&sort=sideways' });
    const items = await listRows();
    expect(items[0]).toHaveAttribute('data-question-id', demoIds.pendingSoonest);
    expect(screen.getByRole('radio', { name: /^Pending/ })).toBeChecked();
  });

  it('turns a row expired the moment its time passes, without a refetch', async () => {
    const { advance } = renderApp();
    await listRows();
    const row = rowOf(demoIds.pendingSoonest);
    expect(within(row).getByText('expires in 2m 00s')).toHaveAttribute('data-urgency', 'danger');
    advance(119_000);
    expect(within(row).getByText('expires in 1s')).toBeInTheDocument();
    advance(1_000);
    expect(within(row).getByText('Expired')).toBeInTheDocument();
    expect(within(row).queryByText('Pending')).not.toBeInTheDocument();
    // The server still says pending until its sweeper runs; the portal must not wait for that.
    expect((await mockCall(demoIds.pendingSoonest)).status).toBe('pending');
  });

  it('says when there is nothing, and when a filter hides everything', async () => {
    getMockApi({ seed: 'empty' });
    const { user } = renderApp();
    expect(await screen.findByText('No questions are waiting')).toBeInTheDocument();
    expect(screen.queryByText('No questions match these filters')).not.toBeInTheDocument();

    await mockControl('questions', {
      question: 'Can the agent retry the failed export now?',
      expires_in_seconds: 3600,
    });
    await refreshNow(user);
    await waitFor(async () => expect(await listRows()).toHaveLength(1));
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'invoice');
    expect(await screen.findByText('No questions match these filters')).toBeInTheDocument();
    expect(screen.queryByText('No questions are waiting')).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Questions' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await listRows()).toHaveLength(1);
  });

  it('shows a failure with a way forward, not an empty list', async () => {
    getMockApi();
    await mockControl('faults', {
      kind: 'status',
      status: 500,
      detail: 'database is locked',
      count: 3,
    });
    const { user } = renderApp();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Questions could not be loaded');
    expect(alert).toHaveTextContent('database is locked');
    expect(screen.queryByText('No questions are waiting')).not.toBeInTheDocument();
    await mockControl('faults', undefined, 'DELETE');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect((await listRows()).length).toBeGreaterThan(1);
  });
});

describe('the search box', () => {
  it('keeps a space typed before a pause, and Escape clears what was about to be sent', async () => {
    const { user, router, advance } = renderApp({ route: '/questions?status=resolved' });
    await listRows();
    const box = screen.getByRole('searchbox', { name: 'Search' });
    await user.type(box, 'replica ');
    advance(199);
    expect(router.state.location.search).toBe('?status=resolved');
    // The pause: the URL takes the trimmed text, the box keeps the space.
    advance(1);
    await waitFor(() => expect(router.state.location.search).toBe('?status=resolved&q=replica'));
    expect(box).toHaveValue('replica ');
    await user.type(box, 'lag');
    expect(box).toHaveValue('replica lag');
    advance(200);
    await waitFor(() =>
      expect(router.state.location.search).toBe('?status=resolved&q=replica+lag'),
    );
    await user.type(box, ' window');
    await user.keyboard('{Escape}');
    // Well past the pause: what was about to be sent never is.
    advance(1000);
    expect(box).toHaveValue('');
    expect(router.state.location.search).toBe('?status=resolved');
    // The box's clear button does the same, and is there only while there is text.
    expect(screen.queryByRole('button', { name: 'Clear search' })).not.toBeInTheDocument();
    await user.type(box, 'lag');
    advance(200);
    await waitFor(() => expect(router.state.location.search).toBe('?status=resolved&q=lag'));
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(box).toHaveValue('');
    await waitFor(() => expect(router.state.location.search).toBe('?status=resolved'));
    expect(screen.queryByRole('button', { name: 'Clear search' })).not.toBeInTheDocument();
  });
});

describe('live refresh', () => {
  it('counts again in the title when a question expires, with no refresh in between', async () => {
    const { advance } = renderApp();
    const before = askCount(await listRows());
    await waitFor(() => expect(document.title).toBe(`(${before}) Expiring soon · Questions`));
    // The demo's soonest question expires in 2 minutes.
    advance(2 * 60_000 + 1_000);
    await waitFor(() => expect(document.title).toBe(`(${before - 1}) Expiring soon · Questions`));
  });

  it('marks questions that arrive while the inbox is open as new until opened, and counts them in the title', async () => {
    const { user } = renderApp();
    const before = askCount(await listRows());
    // The title is counted once the list is on screen and the browser is idle.
    await waitFor(() => expect(document.title).toBe(`(${before}) Expiring soon · Questions`));
    const created = (await mockControl('questions', {
      question: 'Can the agent retry the failed export now?',
      answer_format: 'yes/no',
      expires_in_seconds: 3600,
    })) as { call: { id: string } };
    await refreshNow(user);
    await waitFor(async () => expect(askCount(await listRows())).toBe(before + 1));
    const row = rowOf(created.call.id);
    expect(within(row).getByText('New')).toBeInTheDocument();
    expect(screen.getByText('1 new question arrived.')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`(${before + 1}) Expiring soon · Questions`));
    await user.click(within(row).getByRole('link'));
    await screen.findByRole('dialog', { name: 'Question' });
    await waitFor(() =>
      expect(within(rowOf(created.call.id)).queryByText('New')).not.toBeInTheDocument(),
    );
    expect(screen.queryByText('1 new question arrived.')).not.toBeInTheDocument();
  });
});

describe('more than the API returns', () => {
  it('says the list is cut at 500 and counts "500+"', async () => {
    getMockApi({ seed: 'empty' });
    for (let i = 0; i < 501; i++) {
      await mockControl('questions', {
        question: `Load question ${i}?`,
        expires_in_seconds: 3600 + i,
      });
    }
    renderApp();
    expect(await screen.findByTestId('list-truncated')).toHaveTextContent('at most 500 questions');
    const status = screen.getByRole('radiogroup', { name: 'Status' });
    await waitFor(() => expect(within(status).getByText('Pending 500+')).toBeInTheDocument());
    // 500 rows are virtualized: which of them are in the page needs a layout engine (e2e/inbox.spec.ts).
    expect(screen.getByRole('list', { name: 'Questions' })).toBeInTheDocument();
  }, 20_000);

  it('finds answers given before in the Resolved list when the unfiltered list is cut', async () => {
    getMockApi({ seed: 'empty' });
    const ask = {
      question: 'May the agent rotate the staging API keys tonight?',
      expires_in_seconds: 3600,
    };
    const earlier = (await mockControl('questions', ask)) as { call: { id: string } };
    await mockControl(`questions/${earlier.call.id}/resolve`, { answer: 'Yes, after 22:00' });
    await mockControl('clock', { advanceMs: 60_000 });
    // 500 newer questions: the unfiltered list (newest first, at most 500) leaves the earlier out.
    for (let i = 0; i < 500; i++) {
      await mockControl('questions', { question: `Load question ${i}?`, expires_in_seconds: 3600 });
    }
    const again = (await mockControl('questions', ask)) as { call: { id: string } };
    expect(again.call.id).not.toBe(earlier.call.id);
    renderApp({ route: `/questions/${again.call.id}` });
    // Hundreds of rows to read first: longer than the usual wait on a loaded machine.
    const dialog = await screen.findByRole('dialog', { name: 'Question' }, { timeout: 5000 });
    const before = await within(dialog).findByRole(
      'region',
      { name: 'Answered before' },
      { timeout: 5000 },
    );
    expect(before).toHaveTextContent('Yes, after 22:00');
  }, 20_000);
});
