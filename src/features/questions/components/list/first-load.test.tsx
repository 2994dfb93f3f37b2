import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { listRows } from '@/test/inbox';
import { mockControl, recordListRequests } from '@/test/mock-api';
import { renderApp } from '@/test/render';
import { readListsCut, rememberListsCut } from '../../utils/lists-cut';

/** The status filter's count for `label` once it shows ("Pending 12"). */
async function countOf(label: string): Promise<number> {
  const status = screen.getByRole('radiogroup', { name: 'Status' });
  const pattern = new RegExp(`^${label} (\\d+)\\+?$`);
  await waitFor(() => expect(within(status).getByText(pattern)).toBeInTheDocument());
  return Number(pattern.exec(within(status).getByText(pattern).textContent ?? '')?.[1]);
}

describe('a first load', () => {
  it('asks for the unfiltered list once and cuts the view, the counts and the title from it', async () => {
    rememberListsCut(false);
    const requests = recordListRequests();
    renderApp();
    const rows = await listRows();
    const pending = await countOf('Pending');
    const all = await countOf('All');
    expect(all).toBeGreaterThan(pending);
    // Only pending rows (the demo's three look-alike asks are one row).
    expect(rows).toHaveLength(pending - 2);
    await waitFor(() => expect(document.title).toMatch(new RegExp(`^\\(${pending}\\) `)));
    expect(requests).toEqual(['limit=500']);
    expect(readListsCut()).toBe(false);
  });

  it('asks for the view first when the unfiltered list was cut last time, and forgets it once it is whole', async () => {
    rememberListsCut(true);
    const requests = recordListRequests();
    renderApp({ route: '/questions?status=resolved' });
    await listRows();
    await countOf('All');
    expect(requests[0]).toBe('status=resolved&limit=500');
    expect(requests).toContain('limit=500');
    expect(readListsCut()).toBe(false);
  });

  it('asks for the view’s own list when the unfiltered one is cut at the limit, and remembers it', async () => {
    rememberListsCut(false);
    await mockControl('reset', { seed: 'empty' });
    // 500 resolved questions fill the unfiltered list; the pending one is beyond it.
    for (let index = 0; index < 500; index += 1) {
      await mockControl('questions', { id: `ptc_old_${index}`, question: `Old ${index}?` });
      await mockControl(`questions/ptc_old_${index}/resolve`, { answer: 'done' });
    }
    await mockControl('questions', { id: 'ptc_new', question: 'Is the new one shown?' });
    const requests = recordListRequests();
    renderApp();
    await waitFor(async () =>
      expect((await listRows()).map((row) => row.dataset.questionId)).toEqual(['ptc_new']),
    );
    expect(requests.slice(0, 2)).toEqual(['limit=500', 'status=pending&limit=500']);
    expect(readListsCut()).toBe(true);
  });
});
