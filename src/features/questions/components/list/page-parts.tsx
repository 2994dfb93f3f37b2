import type { Question } from '../../api/schemas';
import { OutboxRunner } from '../drawer/outbox-runner';
import { PendingTitle } from './pending-title';

/**
 * What the list's page runs once the browser is idle after its first screen: the tab's title and
 * icon, the actions held for Undo. Its own file, not the drawer's: the drawer's code waits for the
 * reviewer's first input (questions-page.tsx), these do not.
 */
export function PageParts({ pending }: { pending: Question[] | undefined }) {
  return (
    <>
      <PendingTitle pending={pending} />
      <OutboxRunner />
    </>
  );
}
