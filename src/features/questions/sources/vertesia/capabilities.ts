import { notAllowed, type SourceCapabilities } from '../types';

export const VERTESIA_ONLY_ANSWERED = 'Vertesia asks can only be answered';

/** What Vertesia lets a reviewer do, and why not: the drawer and the adapter both say these. */
export const vertesiaCapabilities = {
  answer: 'texts',
  edit: notAllowed(`${VERTESIA_ONLY_ANSWERED}: an answer cannot be changed once sent.`),
  notApplicable: notAllowed(`${VERTESIA_ONLY_ANSWERED}: there is no "not applicable".`),
  cancel: notAllowed(`${VERTESIA_ONLY_ANSWERED}: the agent's run decides when to stop asking.`),
  note: `${VERTESIA_ONLY_ANSWERED}: Vertesia has no “not applicable” and no cancel.`,
  notApplicableTells: null,
} satisfies SourceCapabilities;
