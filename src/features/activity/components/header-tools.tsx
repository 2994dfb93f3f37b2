import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { activityQueries } from '../api/queries';
import { readBrowserReviewer, writeBrowserReviewer } from '../utils/browser-reviewer';

/**
 * The header's "who": behind an SSO proxy, the signed-in person; run locally, a "You are …" field
 * (remembered) naming the reviewer the server records. Where there is no portal server, nothing.
 * (No react-router import here: a lazily loaded file importing it pulls the router out of the
 * first screen's file into a shared one, which costs every visit; the link is in the header.)
 */
export function HeaderTools({ className }: { className?: string }) {
  const me = useQuery(activityQueries.me());
  const queryClient = useQueryClient();
  // The cookie goes with every request from here on, even if it had expired.
  const [name, setName] = useState(() => writeBrowserReviewer(readBrowserReviewer()));
  if (!me.data) return null;
  const { reviewer, identity } = me.data;
  return (
    <span className={className} style={{ display: 'inline-flex', gap: 12, alignItems: 'center' }}>
      {identity === 'sso' ? (
        <span title={reviewer.id} data-testid="signed-in-reviewer">
          Signed in as {reviewer.name ?? reviewer.id}
        </span>
      ) : (
        <label style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}>
          You are
          <input
            value={name}
            size={12}
            maxLength={200}
            style={{ font: 'inherit', padding: '2px 6px' }}
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
