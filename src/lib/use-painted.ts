import { useEffect, useState } from 'react';
import { afterNextPaint } from './idle';

/**
 * False until the component's first render is on screen, then true: for parts nobody sees at
 * first (a closed dialog), so they are mounted after what the reviewer is waiting for has painted.
 */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (painted) return;
    return afterNextPaint(() => setPainted(true));
  }, [painted]);
  return painted;
}
