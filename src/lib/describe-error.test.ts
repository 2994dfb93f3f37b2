import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { describeError } from './describe-error';

describe('describeError', () => {
  it('a server error names no one system: Vertesia and Bilby questions meet it too', () => {
    const error = new ApiError({
      kind: 'server',
      status: 200,
      detail: 'Vertesia did not accept the answer.',
      method: 'POST',
      url: 'https://vertesia.example/api/v1/interactions/pending-asks/a1/resolve',
    });
    const { title, message, retryable } = describeError(error);
    expect(title).toBe('The server hit an error');
    expect(message).toBe(
      'HTTP 200: “Vertesia did not accept the answer”. Try again; if it keeps failing, tell whoever runs the agent platform.',
    );
    expect(message).not.toMatch(/Reflexio/);
    expect(retryable).toBe(true);
  });
});
