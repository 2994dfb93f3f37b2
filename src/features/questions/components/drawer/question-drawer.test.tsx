import { demoIds } from '@mock/seed';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { findRow, mockCall, openDrawer, rowOf } from '@/test/inbox';
import { getMockApi, holdNextPost, mockControl } from '@/test/mock-api';
import { refreshNow, renderApp } from '@/test/render';
import { NOT_APPLICABLE_ANSWER } from '../../api/schemas';
import { SPLIT_VIEW_QUERY } from '../../hooks/use-split-view';

// The drawer is a lazy chunk: its first import compiles it (and Mantine's drawer) on demand, which
// on a busy machine takes longer than a query's one-second wait. Done once here, outside the tests.
beforeAll(() => import('./question-drawer'), 30_000);

// These tests look at the drawer after an action; "answer and next" (on by default, tested in its
// own block below) would move it on to the next question.
beforeEach(() => localStorage.setItem('qi:answer-and-next', 'off'));

/** What "Your recent answers" holds in this browser. */
const recentAnswers = () => JSON.parse(localStorage.getItem('qi:recent-answers') ?? '[]');

/** The status word on the drawer's badge. */
function badge(dialog: HTMLElement): string | null | undefined {
  return dialog.querySelector('.status-badge')?.textContent;
}

describe('answering a pending question', () => {
  it('sends {"result": {"answer": …}} trimmed, updates list and drawer, and confirms', async () => {
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    await waitFor(() => expect(findRow(demoIds.pendingYesNo)).not.toBeNull());
    // Pasted, not typed key by key: 30 keys took most of this test's time on a loaded machine.
    await user.click(within(dialog).getByRole('textbox', { name: 'Answer' }));
    await user.paste('  Yes, issue the credit note  ');
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }));
    expect(await screen.findByText('Answer sent')).toBeInTheDocument();
    const call = await mockCall(demoIds.pendingYesNo);
    expect(call.status).toBe('resolved');
    expect(call.result).toStrictEqual({ answer: 'Yes, issue the credit note' });
    expect(badge(dialog)).toBe('Resolved');
    expect(within(dialog).getByTestId('current-answer')).toHaveTextContent(
      'Yes, issue the credit note',
    );
    // The pending list no longer holds it.
    expect(findRow(demoIds.pendingYesNo)).toBeNull();
    // Now it can be edited, pre-filled.
    expect(within(dialog).getByRole('textbox', { name: 'Answer' })).toHaveValue(
      'Yes, issue the credit note',
    );
  });

  it('submits with Ctrl+Enter, and a quick answer fills the box', async () => {
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    const box = within(dialog).getByRole('textbox', { name: 'Answer' });
    expect(box).toHaveValue('No');
    box.focus();
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(async () =>
      expect((await mockCall(demoIds.pendingYesNo)).result).toEqual({ answer: 'No' }),
    );
  });

  it('refuses a blank answer before sending anything', async () => {
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    await user.type(within(dialog).getByRole('textbox', { name: 'Answer' }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }));
    expect(
      within(dialog).getByText('Write an answer first: it cannot be blank.'),
    ).toBeInTheDocument();
    expect((await mockCall(demoIds.pendingYesNo)).status).toBe('pending');
  });

  it('sets valid_for_seconds from the advanced option, and refuses one that is not a positive whole number', async () => {
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    await user.type(within(dialog).getByRole('textbox', { name: 'Answer' }), 'Yes');
    await user.click(within(dialog).getByRole('button', { name: 'Advanced' }));
    const validFor = within(dialog).getByRole('textbox', { name: 'Answer valid for (seconds)' });
    await user.type(validFor, '1.5');
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }));
    expect(within(dialog).getByText(/whole number of seconds greater than 0/)).toBeInTheDocument();
    expect((await mockCall(demoIds.pendingYesNo)).status).toBe('pending');
    await user.clear(validFor);
    await user.type(validFor, '3600');
    expect(within(dialog).getByText(/reuse this answer: 1 hour\./)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }));
    await waitFor(async () =>
      expect((await mockCall(demoIds.pendingYesNo)).status).toBe('resolved'),
    );
    const call = await mockCall(demoIds.pendingYesNo);
    expect(Date.parse(String(call.valid_until)) - Date.parse(String(call.resolved_at))).toBe(
      3_600_000,
    );
  });

  it('shows the change at once and rolls it back when the server refuses', async () => {
    getMockApi();
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    await waitFor(() => expect(findRow(demoIds.pendingYesNo)).not.toBeNull());
    await mockControl('faults', {
      kind: 'status',
      status: 500,
      detail: 'database is locked',
      match: { method: 'POST' },
    });
    const held = holdNextPost();
    await user.type(within(dialog).getByRole('textbox', { name: 'Answer' }), 'Yes');
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }));
    // Optimistic: resolved in the drawer and gone from the pending list before the server answers.
    await waitFor(() => expect(badge(dialog)).toBe('Resolved'));
    expect(findRow(demoIds.pendingYesNo)).toBeNull();
    held.release();
    // Rolled back, with the server's words, and nothing typed is lost.
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('database is locked');
    expect(badge(dialog)).toBe('Pending');
    expect(within(dialog).getByRole('textbox', { name: 'Answer' })).toHaveValue('Yes');
    await waitFor(() => expect(findRow(demoIds.pendingYesNo)).not.toBeNull());
    expect((await mockCall(demoIds.pendingYesNo)).status).toBe('pending');
  });

  it('cannot be sent twice while the request is in flight', async () => {
    getMockApi();
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    const held = holdNextPost();
    await user.type(within(dialog).getByRole('textbox', { name: 'Answer' }), 'Yes');
    const button = within(dialog).getByRole('button', { name: 'Answer' });
    await user.click(button);
    await waitFor(() => expect(button).toBeDisabled());
    await user.click(button);
    held.release();
    expect(await screen.findByText('Answer sent')).toBeInTheDocument();
    expect(held.posts()).toBe(1);
  });
});

describe('your recent answers', () => {
  it('keeps an answer typed and sent, not a quick answer the format offers anyway', async () => {
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    expect(within(dialog).queryByRole('group', { name: 'Recent answers' })).toBeNull();
    await user.type(within(dialog).getByRole('textbox', { name: 'Answer' }), ' Yes, after audit ');
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }));
    await screen.findByText('Answer sent');
    expect(recentAnswers()).toEqual(['Yes, after audit']);
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await user.click(within(dialog).getByRole('button', { name: 'Edit answer' }));
    await screen.findByText('Answer changed');
    expect(recentAnswers()).toEqual(['Yes, after audit']);
  });

  it('offers them on a free-text question: 1 fills the box, Forget removes them', async () => {
    localStorage.setItem(
      'qi:recent-answers',
      JSON.stringify(['Only after the audit', 'Ask the data team']),
    );
    const { dialog, user } = await openDrawer(demoIds.longText);
    const recent = await within(dialog).findByRole('group', { name: 'Recent answers' });
    expect(within(recent).getByRole('button', { name: 'Ask the data team' })).toHaveAttribute(
      'aria-keyshortcuts',
      '2',
    );
    const box = within(dialog).getByRole('textbox', { name: 'Answer' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    await user.keyboard('1');
    expect(box).toHaveValue('Only after the audit');
    expect(box).toHaveFocus();
    await user.click(within(recent).getByRole('button', { name: 'Forget recent answers' }));
    expect(within(dialog).queryByRole('group', { name: 'Recent answers' })).toBeNull();
    // Forgetting the list leaves what is in the box (a draft) alone.
    expect(box).toHaveValue('Only after the audit');
  });
});

describe('moving on', () => {
  it('after answering, "Next question" opens the one that was below it, not the top of the list', async () => {
    const { dialog, user, router } = await openDrawer(demoIds.pendingYesNo);
    await waitFor(() => expect(findRow(demoIds.pendingYesNo)).not.toBeNull());
    const order = [...document.querySelectorAll<HTMLElement>('[data-question-id]')].map(
      (row) => row.dataset.questionId,
    );
    const below = order[order.indexOf(demoIds.pendingYesNo) + 1];
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }));
    await screen.findByText('Answer sent');
    await user.click(within(dialog).getByRole('button', { name: 'Next question (j)' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/questions/${below}`));
  });
});

describe('answer and next, and the keyboard', () => {
  beforeEach(() => localStorage.removeItem('qi:answer-and-next'));

  function rowOrder(): string[] {
    return [...document.querySelectorAll<HTMLElement>('[data-question-id]')].map(
      (row) => row.dataset.questionId ?? '',
    );
  }

  it('opens with the cursor on the drawer: j goes to the next question, typing nothing', async () => {
    const { dialog, user, router } = await openDrawer(demoIds.pendingYesNo);
    await waitFor(() => expect(findRow(demoIds.pendingYesNo)).not.toBeNull());
    const box = within(dialog).getByRole('textbox', { name: 'Answer' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    expect(box).not.toHaveFocus();
    const order = rowOrder();
    await user.keyboard('j');
    const below = order[order.indexOf(demoIds.pendingYesNo) + 1];
    await waitFor(() => expect(router.state.location.pathname).toBe(`/questions/${below}`));
    expect(Object.keys(localStorage).filter((key) => key.includes('draft'))).toEqual([]);
  });

  it('a goes to the answer box, Esc leaves it, a quick answer key fills it; j typed in the box is text', async () => {
    const { dialog, user, router } = await openDrawer(demoIds.pendingYesNo);
    const box = within(dialog).getByRole('textbox', { name: 'Answer' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    await user.keyboard('a');
    expect(box).toHaveFocus();
    expect(box).toHaveValue('');
    await user.keyboard('jk');
    expect(box).toHaveValue('jk');
    expect(router.state.location.pathname).toBe(`/questions/${demoIds.pendingYesNo}`);
    await user.keyboard('{Escape}');
    expect(box).not.toHaveFocus();
    expect(screen.getByRole('dialog', { name: 'Question' })).toBeInTheDocument();
    await user.keyboard('2');
    expect(box).toHaveValue('No');
    expect(box).toHaveFocus();
  });

  it('after an answer is accepted, moves to the question below with the cursor in its box', async () => {
    const { dialog, user, router } = await openDrawer(demoIds.pendingYesNo);
    await waitFor(() => expect(findRow(demoIds.pendingYesNo)).not.toBeNull());
    const order = rowOrder();
    const below = order[order.indexOf(demoIds.pendingYesNo) + 1];
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/questions/${below}`));
    expect((await mockCall(demoIds.pendingYesNo)).status).toBe('resolved');
    const next = screen.getByRole('dialog', { name: 'Question' });
    await waitFor(() =>
      expect(within(next).getByRole('textbox', { name: 'Answer' })).toHaveFocus(),
    );
  });

  it('stays on the answered question when the reviewer turned it off (remembered)', async () => {
    const { dialog, user, router } = await openDrawer(demoIds.pendingYesNo);
    await user.click(
      within(dialog).getByRole('switch', { name: 'Go to the next question after each answer' }),
    );
    expect(localStorage.getItem('qi:answer-and-next')).toBe('off');
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }));
    await screen.findByText('Answer sent');
    expect(router.state.location.pathname).toBe(`/questions/${demoIds.pendingYesNo}`);
    expect(badge(dialog)).toBe('Resolved');
  });
});

describe('the other actions', () => {
  it('edits an earlier answer with PATCH, pre-filled with the current one', async () => {
    const { dialog, user } = await openDrawer(demoIds.resolved);
    const box = within(dialog).getByRole('textbox', { name: 'Answer' });
    expect(box).toHaveValue('No. Replica lag is still 40 s; wait for the 02:00 UTC window.');
    await user.click(within(dialog).getByRole('button', { name: 'Edit answer' }));
    expect(within(dialog).getByText(/already the answer/)).toBeInTheDocument();
    await user.clear(box);
    await user.type(box, 'Yes, lag is fine now');
    await user.click(within(dialog).getByRole('button', { name: 'Edit answer' }));
    expect(await screen.findByText('Answer changed')).toBeInTheDocument();
    expect((await mockCall(demoIds.resolved)).result).toStrictEqual({
      answer: 'Yes, lag is fine now',
    });
  });

  it('marks not applicable after confirmation, with the exact payload', async () => {
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    await user.click(within(dialog).getByRole('button', { name: 'Not applicable' }));
    const confirm = await screen.findByRole('dialog', {
      name: 'Mark this question not applicable?',
    });
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect((await mockCall(demoIds.pendingYesNo)).status).toBe('pending');
    await user.click(within(dialog).getByRole('button', { name: 'Not applicable' }));
    await user.click(
      within(
        await screen.findByRole('dialog', { name: 'Mark this question not applicable?' }),
      ).getByRole('button', {
        name: 'Mark not applicable',
      }),
    );
    expect(await screen.findByText('Marked not applicable')).toBeInTheDocument();
    expect((await mockCall(demoIds.pendingYesNo)).result).toStrictEqual({
      answer: NOT_APPLICABLE_ANSWER,
      not_applicable: true,
    });
  });

  it('cancels after confirmation, and then offers no actions', async () => {
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel question' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel this question?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel question' }));
    expect(await screen.findByText('Question cancelled')).toBeInTheDocument();
    expect((await mockCall(demoIds.pendingYesNo)).status).toBe('cancelled');
    expect(within(dialog).queryByRole('button', { name: 'Answer' })).not.toBeInTheDocument();
    expect(within(dialog).getByText(/was cancelled/)).toBeInTheDocument();
  });

  it('resolves another tool with a JSON object, refusing anything else before sending', async () => {
    const { dialog, user } = await openDrawer(demoIds.nonAskHumanPending);
    expect(
      within(dialog).queryByRole('button', { name: 'Not applicable' }),
    ).not.toBeInTheDocument();
    const box = within(dialog).getByRole('textbox', { name: 'Result (JSON)' });
    // It starts empty (the call's arguments are beside it, on request), and says before sending
    // that it is final.
    expect((box as HTMLTextAreaElement).value).toBe('');
    expect(within(dialog).getByLabelText("The call's arguments")).toHaveTextContent(
      '"service": "billing-api"',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Start from the arguments' }));
    expect((box as HTMLTextAreaElement).value).toContain('"service": "billing-api"');
    expect(within(dialog).getByText(/Once sent, it cannot be changed/)).toBeInTheDocument();
    // Pasted, not typed: each key re-renders the drawer, too slow for jsdom on a busy machine.
    const replace = async (text: string) => {
      await user.clear(box);
      await user.paste(text);
    };
    await replace('[1, 2]');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    expect(within(dialog).getByText(/must be a JSON object/)).toBeInTheDocument();
    await replace('{\n"approved": true\n"note": "ok"}');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    expect(
      within(dialog).getByText(/^This is not valid JSON: line 3, column 1: a comma or a closing/),
    ).toBeInTheDocument();
    await replace('{"approved": true, "note": "ok"}');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    // Confirmed first, like Cancel, showing what is sent; "Keep editing" sends nothing.
    const confirm = await screen.findByRole('dialog', { name: 'Send this result?' });
    expect(within(confirm).getByLabelText('The result to send')).toHaveTextContent(
      /"approved": true,\s*"note": "ok"/,
    );
    await user.click(within(confirm).getByRole('button', { name: 'Keep editing' }));
    expect((await mockCall(demoIds.nonAskHumanPending)).status).toBe('pending');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Send this result?' })).getByRole('button', {
        name: 'Send result',
      }),
    );
    expect(await screen.findByText('Result sent')).toBeInTheDocument();
    expect((await mockCall(demoIds.nonAskHumanPending)).result).toStrictEqual({
      approved: true,
      note: 'ok',
    });
  });

  it('explains closed questions and links the one that superseded it', async () => {
    const { dialog, router, user } = await openDrawer(demoIds.superseded);
    expect(
      await within(dialog).findByRole('heading', { name: 'Earlier answer' }),
    ).toBeInTheDocument();
    expect(
      within(dialog).queryByRole('button', { name: /Answer|Edit answer/ }),
    ).not.toBeInTheDocument();
    await user.click(
      within(dialog).getByRole('link', { name: 'Open the question that superseded it' }),
    );
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/questions/${demoIds.superseder}`),
    );
  });

  it('says "not found" for an unknown or implausible id', async () => {
    renderApp({ route: '/questions/ptc_00000000000000000000000000000000' });
    expect(await screen.findByText('Question not found')).toBeInTheDocument();
  });
});

describe('never losing work', () => {
  it('keeps a draft per question across closing and reopening, and marks it in the list', async () => {
    const first = await openDrawer(demoIds.pendingYesNo);
    await first.user.type(
      within(first.dialog).getByRole('textbox', { name: 'Answer' }),
      'Half-written thought',
    );
    expect(within(first.dialog).getByTestId('draft-status')).toHaveTextContent('Draft saved');
    first.unmount();
    const second = await openDrawer(demoIds.pendingYesNo);
    expect(within(second.dialog).getByRole('textbox', { name: 'Answer' })).toHaveValue(
      'Half-written thought',
    );
    await waitFor(() => expect(findRow(demoIds.pendingYesNo)).not.toBeNull());
    expect(within(rowOf(demoIds.pendingYesNo)).getByText('Draft')).toBeInTheDocument();
    await second.user.click(within(second.dialog).getByRole('button', { name: 'Discard draft' }));
    expect(within(second.dialog).getByRole('textbox', { name: 'Answer' })).toHaveValue('');
    expect(within(rowOf(demoIds.pendingYesNo)).queryByText('Draft')).not.toBeInTheDocument();
  });

  it('tells the reviewer when someone else answered while the drawer was open, keeping the draft', async () => {
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    await user.type(within(dialog).getByRole('textbox', { name: 'Answer' }), 'My careful answer');
    await mockControl(`questions/${demoIds.pendingYesNo}/resolve`, { answer: 'Their answer' });
    await refreshNow(user);
    const notice = await within(dialog).findByText('Answered by someone else: “Their answer”');
    expect(notice).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Answer' })).toHaveValue(
      'My careful answer',
    );
    expect(within(dialog).getByRole('button', { name: 'Edit answer' })).toBeInTheDocument();
  });

  it('explains a lost race (409) and keeps the draft', async () => {
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    await user.type(within(dialog).getByRole('textbox', { name: 'Answer' }), 'No, mine');
    await mockControl(`questions/${demoIds.pendingYesNo}/cancel`);
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Someone else got there first');
    expect(alert).toHaveTextContent('Pending tool call is cancelled');
    await waitFor(() => expect(within(dialog).getByText(/was cancelled/)).toBeInTheDocument());
    expect(within(dialog).getByRole('textbox', { name: 'Answer' })).toHaveValue('No, mine');
    expect(within(dialog).getByRole('button', { name: 'Copy text' })).toBeInTheDocument();
  });

  it('treats re-sending the same answer as success (the server is idempotent)', async () => {
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    await mockControl(`questions/${demoIds.pendingYesNo}/resolve`, { answer: 'Yes' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Answer' }), 'Yes');
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }));
    expect(await screen.findByText('Answer sent')).toBeInTheDocument();
  });

  it('says so when the question no longer exists (404) and removes it from the list', async () => {
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    await waitFor(() => expect(findRow(demoIds.pendingYesNo)).not.toBeNull());
    await user.type(within(dialog).getByRole('textbox', { name: 'Answer' }), 'Yes');
    await mockControl(`questions/${demoIds.pendingYesNo}`, undefined, 'DELETE');
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }));
    expect(await within(dialog).findByText('This question no longer exists')).toBeInTheDocument();
    await waitFor(() => expect(findRow(demoIds.pendingYesNo)).toBeNull());
    expect(within(dialog).getByRole('textbox', { name: 'Answer' })).toHaveValue('Yes');
  });

  it('closes the question when the countdown reaches zero while typing, keeping the draft', async () => {
    const { dialog, user, advance } = await openDrawer(demoIds.pendingSoonest);
    await user.type(within(dialog).getByRole('textbox', { name: 'Answer' }), 'staging');
    advance(2 * 60_000);
    expect(within(dialog).getByText(/has expired/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Answer' })).not.toBeInTheDocument();
    const box = within(dialog).getByRole('textbox', { name: 'Answer' });
    expect(box).toHaveValue('staging');
    expect(box).toHaveAttribute('readonly');
    expect(within(dialog).getByRole('button', { name: 'Copy text' })).toBeInTheDocument();
  });
});

describe('hostile content', () => {
  it('renders agent-written markup as text', async () => {
    const { dialog } = await openDrawer(demoIds.hostileMarkup);
    const text = within(dialog).getByTestId('question-text');
    expect(text.textContent).toContain('<script>');
    expect(text.querySelector('script, img')).toBeNull();
    expect(document.querySelector('img[onerror], a[href^="javascript:"]')).toBeNull();
    act(() => {});
  });
});

describe('beside the list (a screen 1,280 px wide or more)', () => {
  beforeEach(() => {
    const plain = window.matchMedia;
    vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({
      ...plain(query),
      matches: query === SPLIT_VIEW_QUERY,
    }));
  });
  afterEach(() => vi.restoreAllMocks());

  it('Esc pressed while a dialog is open over it is the dialog’s, even before the dialog holds the focus', async () => {
    const { dialog, user } = await openDrawer(demoIds.pendingYesNo);
    expect(dialog).toHaveAttribute('aria-modal', 'false');
    await user.keyboard('{Shift>}?{/Shift}');
    await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    // As in the frame after a dialog opens, before its focus trap has moved the focus into it.
    const close = within(dialog).getByRole('button', { name: 'Close question' });
    close.focus();
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull(),
    );
    expect(screen.getByRole('dialog', { name: 'Question' })).toBe(dialog);
    // With no dialog over it, Esc closes the question.
    close.focus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Question' })).toBeNull());
  });
});
