import { type Question, REFLEXIO_ORIGIN } from '@/features/questions/api/schemas';

/** A pending Reflexio ask_human question with nothing else set, and `patch` over it. */
export function aQuestion(patch: Partial<Question> = {}): Question {
  return {
    id: 'q',
    source: REFLEXIO_ORIGIN,
    status: 'pending',
    toolName: 'ask_human',
    questionText: 'Q?',
    answerFormat: null,
    tags: [],
    userId: null,
    createdAt: null,
    expiresAt: null,
    resolvedAt: null,
    validUntil: null,
    result: null,
    notApplicable: false,
    args: null,
    scope: null,
    supersededBy: null,
    scopeHash: null,
    dedupKey: null,
    asker: null,
    ...patch,
  };
}
