import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { HOLDERS_EVENT, type HoldersEventDetail } from '@/config/shell-context';
import { teamKeys } from '../api/queries';
import type { TeamState } from '../api/schemas';
import { createTeamLive, type TeamLive } from './team-live';

const question = (id: string) => ({
  id,
  status: 'pending',
  source: { id: 'reflexio', kind: 'reflexio' },
});
const claim = (id: string, reviewer: string, minutes: number) => ({
  sourceId: 'reflexio',
  questionId: id,
  reviewer,
  reviewerName: null,
  claimedAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + minutes * 60_000).toISOString(),
});

/** Another tab leads: this one opens no stream, as a test's page should not. */
const follower = { isLeader: () => false, subscribe: () => () => {}, dispose() {} };

let live: TeamLive | null = null;
afterEach(() => {
  live?.dispose();
  live = null;
});

/** What a bulk action's confirmation hears back for `questions` (as bulk-dialog.tsx asks). */
function ask(questions: ReturnType<typeof question>[]) {
  const detail: HoldersEventDetail = { questions, holders: new Map() };
  document.dispatchEvent(new CustomEvent(HOLDERS_EVENT, { detail }));
  return [...detail.holders].map(([subject, holder]) => [subject.id, holder]);
}

describe("the team's live state answers a bulk action's question", () => {
  it('names the colleagues holding some of the questions, not oneself, not an expired claim', () => {
    const queryClient = new QueryClient();
    const state: TeamState = {
      viewers: [],
      claims: [
        claim('q1', 'bob@example.com', 10),
        claim('q2', 'alice@example.com', 10),
        claim('q3', 'carol@example.com', -1),
      ],
      serverTime: new Date().toISOString(),
    };
    queryClient.setQueryData(teamKeys.state(), state);
    queryClient.setQueryData(teamKeys.me(), 'alice@example.com');
    live = createTeamLive({ queryClient, leader: follower, channel: null });
    expect(ask(['q1', 'q2', 'q3', 'q4'].map(question))).toEqual([['q1', 'bob']]);
  });

  it('answers nothing once the page has let it go, and nothing before the state came', () => {
    const queryClient = new QueryClient();
    live = createTeamLive({ queryClient, leader: follower, channel: null });
    expect(ask([question('q1')])).toEqual([]);
    queryClient.setQueryData(teamKeys.state(), {
      viewers: [],
      claims: [claim('q1', 'bob@example.com', 10)],
      serverTime: new Date().toISOString(),
    } satisfies TeamState);
    expect(ask([question('q1')])).toEqual([['q1', 'bob']]);
    live.dispose();
    live = null;
    expect(ask([question('q1')])).toEqual([]);
  });
});
