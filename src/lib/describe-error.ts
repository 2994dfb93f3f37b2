import { type ErrorDescription, isApiError } from './api-client';

export type { ErrorDescription };

function seconds(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return `${s} second${s === 1 ? '' : 's'}`;
}

/** Plain words for any failure a reviewer can meet, built from the error kind and the server's `detail`. */
export function describeError(error: unknown): ErrorDescription {
  if (!isApiError(error)) {
    return {
      title: 'Something went wrong',
      message:
        error instanceof Error ? error.message : 'An unexpected error happened in the portal.',
      retryable: true,
    };
  }
  // The system's adapter knew this failure better (see ErrorReader).
  if (error.description) return error.description;
  const detail = error.detail;
  switch (error.kind) {
    case 'network':
      return {
        title: 'Can’t reach the server',
        message: 'Check your connection or VPN. Nothing you typed is lost.',
        retryable: true,
      };
    case 'timeout':
      return {
        title: 'The server took too long to answer',
        message:
          'It may be busy. If you were saving something, refresh to see whether it went through.',
        retryable: true,
      };
    case 'auth':
      return {
        title: 'Your session has ended',
        message: 'Sign in again to go on. Your drafts are kept in this browser.',
        retryable: false,
      };
    case 'forbidden':
      return {
        title: 'Not allowed',
        message: `The server refused this request${detail ? `: “${detail}”` : ''}. Ask an administrator for access.`,
        retryable: false,
      };
    case 'not-found':
      return {
        title: 'Not found',
        message:
          'This question no longer exists on the server. It may have been removed or belong to another organization.',
        retryable: false,
      };
    case 'conflict':
      return {
        title: 'The question changed',
        message: detail ?? 'Someone else changed this question first.',
        retryable: false,
      };
    case 'busy':
      return {
        title: 'Busy right now',
        message: detail ?? 'The server is working on this right now; try again in a moment.',
        retryable: true,
      };
    case 'validation':
      return {
        title: 'The server refused the request',
        message: detail ?? 'Some of what was sent is not valid.',
        retryable: false,
      };
    case 'too-large':
      return {
        title: 'Too large for the server',
        message:
          'The server (or a proxy in front of it) refused a request this large. Shorten it and try again.',
        retryable: false,
      };
    case 'rate-limited':
      return {
        title: 'Too many requests',
        message:
          error.retryAfterMs !== null
            ? `The server asks to wait ${seconds(error.retryAfterMs)} before trying again.`
            : 'The server asks to slow down. Try again in a moment.',
        retryable: true,
      };
    case 'unavailable':
      return {
        title: 'The server is unavailable',
        message: `It answered HTTP ${error.status}${detail ? ` (“${detail}”)` : ''}. This is usually brief: try again in a moment.`,
        retryable: true,
      };
    case 'server':
      return {
        title: 'The server hit an error',
        // The server's words end the sentence: their own full stop is not doubled.
        message: `HTTP ${error.status}${detail ? `: “${detail.replace(/\.$/, '')}”` : ''}. Try again; if it keeps failing, tell whoever runs the agent platform.`,
        retryable: true,
      };
    case 'bad-response':
      return {
        title: 'The server’s answer could not be read',
        message: `${error.message} This usually means a proxy or a wrong API address is in the way.`,
        retryable: true,
      };
  }
}
