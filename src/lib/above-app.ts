import { useLayoutEffect } from 'react';

/**
 * How much of what sits above the app (the static demo's banner, an embedding host's bar) is still
 * on screen, as `--qi-above-app` on the root element: fixed layers (the open question's pane and
 * drawer) start below it instead of being covered by it or covering it. Measured while `active`
 * (a question is open), by the drawer's code: the first screen does not need it.
 */
export function useAboveApp(active: boolean) {
  useLayoutEffect(() => {
    // The app's shell: what holds the header (if any) and the main region.
    const node = active ? document.getElementById('main')?.parentElement : null;
    if (!node) return;
    const root = document.documentElement;
    let shown = -1;
    const place = () => {
      const above = Math.max(0, Math.round(node.getBoundingClientRect().top));
      if (above === shown) return;
      shown = above;
      root.style.setProperty('--qi-above-app', `${above}px`);
    };
    place();
    window.addEventListener('scroll', place, { passive: true });
    window.addEventListener('resize', place);
    // The banner's text changes (Reset demo) and wraps: the body's size follows.
    const observer = new ResizeObserver(place);
    observer.observe(document.body);
    return () => {
      window.removeEventListener('scroll', place);
      window.removeEventListener('resize', place);
      observer.disconnect();
      root.style.removeProperty('--qi-above-app');
    };
  }, [active]);
}
