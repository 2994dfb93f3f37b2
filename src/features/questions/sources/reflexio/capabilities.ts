import { NOT_APPLICABLE_ANSWER } from '../../api/schemas';
import { allowed, type SourceCapabilities } from '../types';

/**
 * What Reflexio lets a reviewer do: everything, so the drawer has nothing to explain. No `answer`
 * kind: it depends on the tool (`ask_human` takes text, other tools JSON), which the policy reads
 * from each question.
 */
export const reflexioCapabilities = {
  edit: allowed,
  notApplicable: allowed,
  cancel: allowed,
  note: null,
  // Reflexio resolves the call with this answer (and `not_applicable: true`).
  notApplicableTells: `“${NOT_APPLICABLE_ANSWER}”`,
} satisfies Omit<SourceCapabilities, 'answer'>;
