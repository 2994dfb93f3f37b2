// What a reviewer clicked, pressed or chose on the server's first screen before the app ran
// (public/first-screen.js kept it), done again once the app has taken the page over (main.tsx).
// Loaded only when there is something to do: most pages never need it.

/** A click, a key or a field's new value kept by public/first-screen.js before the app ran, in order. */
export type Queued =
  | { click: Element; modifiers?: MouseEventInit }
  | { key: KeyboardEventInit & { key: string } }
  | { field: Element; value: string };

declare global {
  interface Window {
    /** What was clicked or pressed on the server's HTML before the app took it over. */
    __questionsInboxQueue?: Queued[];
    /** True while main.tsx replays it: public/first-screen.js then holds nothing back. */
    __questionsInboxReplaying?: boolean;
  }
}

/**
 * The element that stands where `old` stood, when the app drew the page anew (it did not take the
 * server's HTML over): the same row's link, or the control with the same name.
 */
function counterpart(old: HTMLElement): HTMLElement | null {
  if (old.isConnected) return old;
  const row = old.closest<HTMLElement>('[data-question-id]')?.dataset.questionId;
  if (row !== undefined && old.matches('a[data-row-link]')) {
    return document.querySelector<HTMLElement>(
      `[data-question-id="${CSS.escape(row)}"] a[data-row-link]`,
    );
  }
  const name = old.getAttribute('aria-label') ?? old.textContent?.trim() ?? '';
  if (!name) return null;
  for (const candidate of document.querySelectorAll<HTMLElement>(old.tagName)) {
    if ((candidate.getAttribute('aria-label') ?? candidate.textContent?.trim()) === name) {
      return candidate;
    }
  }
  return null;
}

/** After the next frame has been drawn: what the last action changed has rendered and settled. */
const nextTurn = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** A text field the reviewer types into: a key pressed there is a character of it. */
function isTextField(element: Element | null): element is HTMLElement {
  return (
    element instanceof HTMLTextAreaElement ||
    (element instanceof HTMLInputElement &&
      !['checkbox', 'radio', 'button'].includes(element.type)) ||
    (element instanceof HTMLElement && element.isContentEditable)
  );
}

/**
 * A field's value the app did not see change (it changed on the server's HTML): set so that React
 * notices it (its tracker holds another value first), then announced as the browser would have.
 */
function giveValue(element: Element, value: string) {
  if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement)) return;
  const native = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element), 'value')?.set;
  if (element instanceof HTMLInputElement) element.value = `${value} `;
  native?.call(element, value);
  element.dispatchEvent(
    new Event(element instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
  );
}

/** A control to click once it is there and can be clicked (the app may draw it a moment later). */
async function clickable(old: HTMLElement): Promise<HTMLElement | null> {
  for (let turn = 0; turn < 180; turn++) {
    const target = counterpart(old);
    if (target && !target.matches(':disabled, [aria-disabled="true"]')) return target;
    await nextTurn();
  }
  return null;
}

/** What Enter, Backspace and Delete do in a text field, as editing commands. */
const TEXT_EDITS: Record<string, string> = {
  Enter: 'insertLineBreak',
  Backspace: 'delete',
  Delete: 'forwardDelete',
};

/** Enter in a one-line field is the app's (a search box): a key event, not a line break. */
const isSingleLine = (target: HTMLElement, key: { key: string }) =>
  key.key === 'Enter' && target instanceof HTMLInputElement;

/** Does again what the reviewer did: public/first-screen.js does not hold it back this time. */
function asReplay(act: () => void) {
  window.__questionsInboxReplaying = true;
  try {
    act();
  } finally {
    window.__questionsInboxReplaying = false;
  }
}

/** Turns spent so far waiting for a read-only field (at most 180 in all: about 3 s). */
let waitedForField = 0;

/**
 * A key typed into a field that is read-only now waits for it: the server's answer box is
 * read-only until the app has taken its part of the page over (answer-form.tsx `notYet`), which
 * can come a moment after the rest (its code, or a part inside it, still on the way).
 */
async function fieldWritable() {
  while (waitedForField < 180) {
    const target = document.activeElement;
    const readOnly =
      (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement) &&
      target.readOnly;
    if (!readOnly) return;
    waitedForField++;
    await nextTurn();
  }
}

async function replay(action: Queued) {
  if ('field' in action) {
    const target = action.field instanceof HTMLElement ? counterpart(action.field) : null;
    if (target) asReplay(() => giveValue(target, action.value));
    return;
  }
  if ('click' in action) {
    const target = action.click instanceof HTMLElement ? await clickable(action.click) : null;
    if (!target) return;
    asReplay(() => {
      // Focused first, as the reviewer's own click did (a menu gives focus back to its button).
      target.focus({ preventScroll: true });
      // A Shift-click (a range of checkboxes) keeps its Shift.
      target.dispatchEvent(
        new MouseEvent('click', {
          ...action.modifiers,
          bubbles: true,
          cancelable: true,
          view: window,
        }),
      );
    });
    return;
  }
  const { key } = action;
  const plain = !key.ctrlKey && !key.metaKey && !key.altKey;
  if (plain && (key.key.length === 1 || TEXT_EDITS[key.key])) await fieldWritable();
  const target = document.activeElement ?? document.body;
  asReplay(() => {
    // A key that reached the page while an earlier one (j, a) had not yet moved the focus: it is
    // what it would have been where that key put the focus. Enter on a link or a button is its
    // click; a character in a text field is typed there.
    if (plain && (key.key === 'Enter' || key.key === ' ') && target.matches('a[href], button')) {
      (target as HTMLElement).click();
    } else if (plain && key.key.length === 1 && isTextField(target)) {
      document.execCommand('insertText', false, key.key);
    } else if (plain && isTextField(target) && TEXT_EDITS[key.key] && !isSingleLine(target, key)) {
      // Typed in the field behind keys that waited (public/first-screen.js): done there as typed.
      document.execCommand(TEXT_EDITS[key.key] as string);
    } else {
      target.dispatchEvent(
        new KeyboardEvent('keydown', { ...key, bubbles: true, cancelable: true }),
      );
    }
  });
}

/**
 * Each action in a turn of its own (as the reviewer's own events came: two j's step twice), the
 * first after the app's own first frame (focus on an open question, its keyboard listeners).
 * What comes meanwhile joins the end of the queue (public/first-screen.js still holds it), so
 * nothing overtakes what came first.
 */
export async function replayQueued(queue: Queued[]) {
  // Once the browser is idle (at most half a second): React has hydrated what it left for later
  // (a part's boundary), so a control's handler is there when its click comes.
  await new Promise((resolve) =>
    'requestIdleCallback' in window
      ? requestIdleCallback(resolve, { timeout: 500 })
      : setTimeout(resolve, 50),
  );
  // Each action leaves the queue once done, not before: while it waits its turn, the queue is not
  // empty, and a key typed meanwhile in the field an earlier key focused waits behind it
  // (public/first-screen.js holds typing in a field only while something waits).
  for (let action = queue[0]; action; action = queue[0]) {
    await nextTurn();
    await replay(action);
    queue.shift();
  }
}
