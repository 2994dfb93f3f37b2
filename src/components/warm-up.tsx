import { Activity, type ReactNode, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useLatest } from '@/lib/use-latest';

/**
 * Renders `children` once where nobody sees them and nothing happens: hidden (an `<Activity>`, so
 * none of their effects run: no request, no key listener, no focus) in an element that is not in
 * the page (no query, test or screen reader finds it, no style or layout is computed). `onDone` is
 * called once they have been rendered; unmount them then.
 *
 * What it is for: code run for the first time is slow. The browser compiles each function as it
 * is first called and learns its types as it goes; the first question opened in a page spent about
 * a third of its main-thread time on that (first opens ~90 ms of script and layout, later ones ~60,
 * Chromium on this project's bench). Rendered once at idle, the first real open runs warm code.
 * Hidden content renders at React's lowest priority, in slices, so it never holds up input; an
 * error in it stays there (React leaves hidden content that fails unrendered until it is shown).
 */
export function WarmUp({ children, onDone }: { children: ReactNode; onDone: () => void }) {
  const [host] = useState(() => document.createElement('div'));
  const done = useLatest(onDone);
  useEffect(() => {
    // The hidden content is put into `host` when it is committed.
    const observer = new MutationObserver(() => {
      observer.disconnect();
      done.current();
    });
    observer.observe(host, { childList: true });
    return () => observer.disconnect();
  }, [host]);
  return createPortal(<Activity mode="hidden">{children}</Activity>, host);
}
