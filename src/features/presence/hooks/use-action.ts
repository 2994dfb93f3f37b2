import { useCallback, useState } from 'react';

/**
 * A request the reviewer started (Claim, Release): pending, its result, its error. Nothing in the
 * cache to update: the live stream brings what changed.
 */
export function useAction<A, R>(run: (arg: A) => Promise<R>) {
  const [state, setState] = useState<{ pending: boolean; data?: R; error?: unknown }>({
    pending: false,
  });
  const start = useCallback(
    (arg: A) => {
      setState({ pending: true });
      run(arg).then(
        (data) => setState({ pending: false, data }),
        (error: unknown) => setState({ pending: false, error }),
      );
    },
    [run],
  );
  return { ...state, start };
}
