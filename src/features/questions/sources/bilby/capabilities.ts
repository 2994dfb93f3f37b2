import { allowed, notAllowed, type SourceCapabilities } from '../types';

const NO_CANCEL = 'Bilby has no way to cancel a question; mark it not applicable instead.';

/** What Bilby lets a reviewer do, and why not: the drawer and the adapter both say these. */
export const bilbyCapabilities = {
  answer: 'choices',
  edit: notAllowed('Bilby questions cannot be changed once answered: the agent has moved on.'),
  // Sent as `status: "dismissed"`.
  notApplicable: allowed,
  cancel: notAllowed(NO_CANCEL),
  note: NO_CANCEL,
  notApplicableTells: 'that the question was dismissed',
  // One request per conversation: a second one is a 409 while the turn the first started runs.
  sendsTogether: 'asker',
  // Several conversations (a team's offsite, asked in each) ask the same: answered once.
  lookalikesAcross: 'conversations',
} satisfies SourceCapabilities;
