import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { getMockApi, TEST_ORIGIN, useExtraHandlers } from '@/test/mock-api';
import { refreshNow, renderApp } from '@/test/render';

describe('auth.mode "token"', () => {
  it('asks for an API key, keeps it for the tab only, and sends it as a Bearer token', async () => {
    getMockApi({ apiKey: 'reviewer-key' });
    const { user } = renderApp({ config: { auth: { mode: 'token' } } });
    await user.click(await screen.findByRole('checkbox', { name: /Keep it for this tab/ }));
    await user.type(screen.getByLabelText('API key'), 'reviewer-key');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('list', { name: 'Questions' })).toBeInTheDocument();
    expect(sessionStorage.getItem('questions-inbox:api-key:reflexio')).toBe('reviewer-key');
    expect(JSON.stringify(localStorage)).not.toContain('reviewer-key');
  });

  it('a key the server refuses ends the session, and a new key brings the inbox back', async () => {
    getMockApi({ apiKey: 'right-key' });
    const { user } = renderApp({ config: { auth: { mode: 'token' } } });
    // Not ticked: the key lives in memory only.
    await user.type(await screen.findByLabelText('API key'), 'wrong-key');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your session has ended');
    expect(alert).toHaveTextContent('no longer accepts your API key');
    expect(sessionStorage.getItem('questions-inbox:api-key:reflexio')).toBeNull();
    await user.click(within(alert).getByRole('button', { name: 'Enter a new API key' }));
    await user.type(await screen.findByLabelText('API key'), 'right-key');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(await screen.findByRole('list', { name: 'Questions' })).toBeInTheDocument();
  });

  it('one key per source that needs one; a key one source refuses is asked for again alone', async () => {
    getMockApi({ apiKey: 'reflexio-key' });
    const seen: { vertesia: (string | null)[]; bilby: (string | null)[] } = {
      vertesia: [],
      bilby: [],
    };
    let vertesiaKey = 'vertesia-key';
    useExtraHandlers(
      http.get(`${TEST_ORIGIN}/vertesia/api/v1/pending-asks`, ({ request }) => {
        const authorization = request.headers.get('authorization');
        seen.vertesia.push(authorization);
        return authorization === `Bearer ${vertesiaKey}`
          ? HttpResponse.json({ asks: [] })
          : HttpResponse.json(
              { error: 'Unauthorized', status: 401, message: 'Invalid API key' },
              { status: 401 },
            );
      }),
      http.get(`${TEST_ORIGIN}/bilby/api/v1/conversations`, ({ request }) => {
        seen.bilby.push(request.headers.get('authorization'));
        return HttpResponse.json({ conversations: [], nextCursor: null });
      }),
    );
    const { user, services } = renderApp({
      config: {
        auth: { mode: 'token' },
        sources: [
          { id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'api' },
          {
            id: 'vertesia',
            kind: 'vertesia',
            apiBaseUrl: 'vertesia/api/v1',
            apiVersion: '20260803',
          },
          // The portal's server adds Bilby's key: the reviewer is not asked for one.
          { id: 'bilby', kind: 'bilby', apiBaseUrl: 'bilby/api/v1', auth: 'server' },
        ],
      },
    });
    await user.type(await screen.findByLabelText('Reflexio API key'), 'reflexio-key');
    expect(screen.queryByLabelText('Bilby API key')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Paste your Vertesia API key.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Vertesia API key'), 'vertesia-key');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('list', { name: 'Questions' })).toBeInTheDocument();
    await waitFor(() => expect(seen.vertesia).toContain('Bearer vertesia-key'));
    await waitFor(() => expect(seen.bilby.length).toBeGreaterThan(0));
    expect(seen.bilby.every((authorization) => authorization === null)).toBe(true);

    // Vertesia stops taking the key: only Vertesia is signed out, and only its key is asked for.
    vertesiaKey = 'rotated-key';
    await refreshNow(user);
    const again = await screen.findByRole('button', { name: 'Enter a new Vertesia API key' });
    expect(screen.getByRole('list', { name: 'Questions' })).toBeInTheDocument();
    await user.click(again);
    await user.type(await screen.findByLabelText('Vertesia API key'), 'rotated-key');
    expect(screen.queryByLabelText('Reflexio API key')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('list', { name: 'Questions' })).toBeInTheDocument();
    expect(services.tokens.all()).toEqual({
      reflexio: 'reflexio-key',
      vertesia: 'rotated-key',
    });
    await waitFor(() => expect(seen.vertesia).toContain('Bearer rotated-key'));
  });
});
