import type { PromptAnswer, Question } from '../api/schemas';
import { sourceActionsOf } from './question-policy';
import { isAskHuman } from './status';

/**
 * Actions that cannot be changed once sent wait a few seconds first ("Sent · Undo"), kept in this
 * browser's storage so that a reload within the window keeps them: a JSON result, an answer to a
 * system that takes no edits (Vertesia, Bilby), a Bilby dismissal, a cancel. An answer that can be
 * edited later goes at once.
 *
 * Why storage, and not a send on `pagehide`: a page cannot tell a reload from a close, so sending
 * on the way out would take the undo away from a reload; and a request sent while the page goes
 * is never seen through, so a refusal would be lost without a word. Kept here, the action is sent
 * by one tab only (it holds a Web Lock named after it while it waits and sends), removed once the
 * system has it, and one adopted from a page that went away is sent only while its question is
 * still pending (never twice). The answer's draft stays until the system has it, so nothing typed
 * is lost either way.
 */
export type HeldAction = 'resolve' | 'not-applicable' | 'cancel';

export interface Held {
  /** `<source id>:<question id>`: one waiting action per question. */
  key: string;
  id: string;
  source: string;
  action: HeldAction;
  result?: Record<string, unknown>;
  answers?: readonly PromptAnswer[];
  validForSeconds?: number;
  draftText?: string;
  /** When it goes (the browser's clock, ms). */
  sendAt: number;
  /** The question's text, cut short, for the note that offers the undo. */
  text: string;
}

const STORAGE_KEY = 'qi:outbox';

/** Whether `action` on `question` is final: then it waits its few seconds of undo. */
export function holdsBack(question: Question, action: HeldAction): boolean {
  if (action === 'cancel') return true;
  if (action === 'resolve' && !isAskHuman(question)) return true;
  return !sourceActionsOf(question).edit.allowed;
}

export function heldKey(question: Pick<Question, 'id' | 'source'>): string {
  return `${question.source.id}:${question.id}`;
}

function isHeld(value: unknown): value is Held {
  const held = value as Partial<Held> | null;
  return (
    typeof held?.key === 'string' &&
    typeof held.id === 'string' &&
    typeof held.source === 'string' &&
    typeof held.sendAt === 'number' &&
    typeof held.text === 'string' &&
    (held.action === 'resolve' || held.action === 'not-applicable' || held.action === 'cancel')
  );
}

export function readHeld(): Held[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isHeld) : [];
  } catch {
    return [];
  }
}

const listeners = new Set<() => void>();
let version = 0;

function write(all: readonly Held[]): boolean {
  try {
    if (all.length === 0) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, JSON.stringify(all));
    return true;
  } catch {
    return false;
  } finally {
    version += 1;
    for (const listener of listeners) listener();
  }
}

/** What this page held back itself: sent without reading its question again first. */
const here = new Set<string>();

/** Keeps `held` until it is sent or undone; false when the browser refused to store it. */
export function keepHeld(held: Held): boolean {
  here.add(held.key);
  return write([...readHeld().filter((other) => other.key !== held.key), held]);
}

/** Whether this page held `key` back itself (asked once, by the tab that sends it). */
export function heldHere(key: string): boolean {
  return here.delete(key);
}

export function dropHeld(key: string): void {
  const all = readHeld();
  if (all.some((held) => held.key === key)) write(all.filter((held) => held.key !== key));
}

/** Told of every change, this tab's and other tabs' (the storage event). */
export function subscribeHeld(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY) return;
    version += 1;
    listener();
  };
  listeners.add(listener);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Changes with every change of the outbox (for useSyncExternalStore). */
export function heldVersion(): number {
  return version;
}

/** The reviewer's undo for each action this tab is holding back. */
const undos = new Map<string, () => void>();

export function registerUndo(key: string, undo: () => void): () => void {
  undos.set(key, undo);
  return () => {
    if (undos.get(key) === undo) undos.delete(key);
  };
}

/**
 * Undoes a waiting action: at once when this tab holds it; else it leaves storage, and the tab
 * that holds it (another tab, or this page's runner not started yet) finds it gone when its time
 * is up and sends nothing.
 */
export function undoHeld(key: string): void {
  const undo = undos.get(key);
  if (undo) undo();
  else dropHeld(key);
}

/** Thrown into the waiting action by its undo: nothing was sent. */
export class Undone extends Error {
  constructor() {
    super('Undone before it was sent.');
    this.name = 'Undone';
  }
}
