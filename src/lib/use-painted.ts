import { useEffect, useState } from 'react';

/**
 * False until the component's first render is on screen, then true: for parts nobody sees at
 * first (a closed dialog, the details below the form), so they are mounted after what the reviewer
 * is waiting for has painted. The frame's callback runs before its paint; the task after it, after.
 */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timeout = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timeout);
    };
  }, []);
  return painted;
}
