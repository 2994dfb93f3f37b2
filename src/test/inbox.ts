import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { mockControl } from './mock-api';
import { type RenderAppOptions, renderApp } from './render';

/** A question as the mock backend holds it (its control API's view, not the portal's). */
export type MockCall = Record<string, unknown> & {
  id: string;
  status: string;
  result: Record<string, unknown> | null;
};

/** What the mock backend holds for question `id` now. */
export async function mockCall(id: string): Promise<MockCall> {
  const state = (await mockControl('state', undefined, 'GET')) as { calls: MockCall[] };
  const call = state.calls.find((candidate) => candidate.id === id);
  if (!call) throw new Error(`the mock holds no question ${id}`);
  return call;
}

/** The rows of the list, once it is on screen. */
export async function listRows(): Promise<HTMLElement[]> {
  const list = await screen.findByRole('list', { name: 'Questions' });
  // A short list's rows off screen come a moment after the first ones (question-list.tsx).
  await waitFor(() => expect(list).not.toHaveAttribute('aria-busy'));
  return within(list).getAllByRole('listitem');
}

/** How many questions the rows stand for: a look-alike group's row for each of its asks. */
export function askCount(rows: HTMLElement[]): number {
  return rows.reduce((sum, row) => sum + Number(row.dataset.group ?? 1), 0);
}

/** The list's row for question `id`, or null while it is not in the page. */
export function findRow(id: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-question-id="${CSS.escape(id)}"]`);
}

/** The list's row for question `id`; throws when it is not in the page. */
export function rowOf(id: string): HTMLElement {
  const row = findRow(id);
  if (!row) throw new Error(`no row for ${id}`);
  return row;
}

/** The portal opened at question `id`, once its drawer shows the question. */
export async function openDrawer(id: string, options: RenderAppOptions = {}) {
  const app = renderApp({ route: `/questions/${id}`, ...options });
  const dialog = await screen.findByRole('dialog', { name: 'Question' });
  await within(dialog).findByTestId('question-text');
  return { ...app, dialog };
}
