import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getMockApi } from '@/test/mock-api';
import { renderApp } from '@/test/render';

describe('auth.mode "token"', () => {
  it('asks for an API key, keeps it for the tab only, and sends it as a Bearer token', async () => {
    getMockApi({ apiKey: 'reviewer-key' });
    const { user } = renderApp({ config: { auth: { mode: 'token' } } });
    await user.click(await screen.findByRole('checkbox', { name: /Keep it for this tab/ }));
    await user.type(screen.getByLabelText('API key'), 'reviewer-key');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('list', { name: 'Questions' })).toBeInTheDocument();
    expect(sessionStorage.getItem('questions-inbox:api-key')).toBe('reviewer-key');
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
    expect(sessionStorage.getItem('questions-inbox:api-key')).toBeNull();
    await user.click(within(alert).getByRole('button', { name: 'Enter a new API key' }));
    await user.type(await screen.findByLabelText('API key'), 'right-key');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(await screen.findByRole('list', { name: 'Questions' })).toBeInTheDocument();
  });
});
