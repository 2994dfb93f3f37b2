import { useSyncExternalStore } from 'react';
import { useRuntimeConfig } from '@/config/runtime-config';
import type { Question } from '../api/schemas';
import {
  type Held,
  type HeldAction,
  heldKey,
  heldVersion,
  holdsBack,
  keepHeld,
  readHeld,
  subscribeHeld,
} from '../utils/outbox';
import { truncateText } from '../utils/text';

type HeldVars = Pick<Held, 'result' | 'answers' | 'validForSeconds' | 'draftText'>;

/**
 * Holds a final action back for `undoSeconds` (config.json) so that it can be undone; the runner
 * (outbox-runner.tsx) sends it then. False when it goes at once instead: an action that can be
 * changed later, a window of 0, or a browser that refused to keep it.
 */
export function useHoldBack() {
  const { undoSeconds } = useRuntimeConfig();
  return (question: Question, action: HeldAction, vars: HeldVars = {}): boolean => {
    if (undoSeconds <= 0 || !holdsBack(question, action)) return false;
    const defined = Object.fromEntries(
      Object.entries(vars).filter(([, value]) => value !== undefined),
    ) as HeldVars;
    return keepHeld({
      key: heldKey(question),
      id: question.id,
      source: question.source.id,
      action,
      ...defined,
      sendAt: Date.now() + undoSeconds * 1000,
      text: truncateText(question.questionText, 80) || question.id,
    });
  };
}

const NOT_HELD_YET = -1;
const notHeldYet = () => NOT_HELD_YET;

/** The action held back on `question`, if one is waiting. */
export function useHeld(question: Pick<Question, 'id' | 'source'>): Held | null {
  // Nothing is held in the server's first screen, nor in the browser's render that takes it over.
  const version = useSyncExternalStore(subscribeHeld, heldVersion, notHeldYet);
  if (version === NOT_HELD_YET) return null;
  const key = heldKey(question);
  return readHeld().find((held) => held.key === key) ?? null;
}
