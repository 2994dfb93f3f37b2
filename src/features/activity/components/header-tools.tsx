import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useAfterHydration } from '@/lib/first-screen';
import { showBidiControls } from '@/lib/show-bidi';
import { activityQueries } from '../api/queries';
import { readBrowserReviewer, writeBrowserReviewer } from '../utils/browser-reviewer';

/**
 * The header's "who": behind an SSO proxy, the signed-in person; run locally, a "You are …" field
 * (remembered) naming the reviewer the server records. Where there is no portal server, nothing.
 * (No react-router import here: a lazily loaded file importing it pulls the router out of the
 * first screen's file into a shared one, which costs every visit; the link is in the header.)
 */
export function HeaderTools({ className }: { className?: string }) {
  // Who you are is the browser's to ask: the server's first screen leaves it out, and so does the
  // browser's render that takes over that HTML (which may come after the answer is here).
  const me = { data: useAfterHydration(useQuery(activityQueries.me()).data, () => undefined) };
  const queryClient = useQueryClient();
  // The cookie goes with every request from here on, even if it had expired.
  // (Not on the server, which renders the first screen without it: `me` is the browser's to ask.)
  const [name, setName] = useState(() =>
    typeof document === 'undefined' ? '' : writeBrowserReviewer(readBrowserReviewer()),
  );
  if (!me.data) return null;
  const { reviewer, identity } = me.data;
  return (
    <span className={className}>
      {identity === 'sso' ? (
        <span
          title={showBidiControls(reviewer.id)}
          data-testid="signed-in-reviewer"
          style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          Signed in as {showBidiControls(reviewer.name ?? reviewer.id)}
        </span>
      ) : (
        <label style={{ display: 'inline-flex', gap: 6, alignItems: 'center', minWidth: 0 }}>
          <span data-label>You are</span>
          <input
            value={name}
            maxLength={200}
            onChange={(event) => setName(event.currentTarget.value)}
            onBlur={() => {
              setName(writeBrowserReviewer(name));
              void queryClient.invalidateQueries({ queryKey: activityQueries.me().queryKey });
            }}
          />
        </label>
      )}
    </span>
  );
}

export default HeaderTools;
