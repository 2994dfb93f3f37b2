// The demo's simulated colleague, Sam: now and then he opens a pending question of one of the
// three systems (rows show "sam viewing"), types an answer for a while ("… is typing an
// answer"), sometimes claims the question, then leaves. He acts through the portal's own team
// routes (server/team/core.ts), as a second reviewer would; tests drive him one step at a time
// (`POST portal-api/__demo/colleague`, demo/portal.ts), which stops his own comings and goings.
import type { Reviewer } from '../server/identity/identity';
import type { Team } from '../server/team/types';

export const COLLEAGUE: Reviewer = { id: 'sam@example.com', name: 'Sam', from: 'browser' };

/** A question as the team routes name it: the portal's source id and question id. */
export interface Subject {
  source: string;
  id: string;
}

export const colleagueActions = ['open', 'type', 'claim', 'release', 'leave', 'auto'] as const;
export type ColleagueAction = (typeof colleagueActions)[number];

export interface ColleagueState {
  /** The question Sam has open, if any. */
  question: Subject | null;
  typing: boolean;
  /** The question Sam claimed last (it may have been answered or expired since). */
  claimed: Subject | null;
  /** Whether Sam comes and goes on his own. */
  auto: boolean;
}

export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface ColleagueOptions {
  team: Pick<Team, 'api'>;
  /** The pending questions of every system, by source. */
  pending(): Promise<Subject[]>;
  /** Whether Sam may act on his own now (false: only when told). */
  autonomous?: () => Promise<boolean>;
  random?: () => number;
  timers?: Timers;
}

export interface Colleague {
  /** One step, as a test asks for it; his own comings and goings stop (until `auto`). */
  act(action: ColleagueAction, question?: Subject): Promise<Response>;
  state(): ColleagueState;
  /** Starts his own comings and goings. */
  start(): void;
  /** Leaves whatever he has open and forgets his claim (the demo's reset). */
  reset(): Promise<void>;
}

/** Heartbeats while Sam has a question open: within the presence TTL, and the typing window. */
const HEARTBEAT_MS = 4000;
const SYSTEM_ORDER = ['reflexio', 'vertesia', 'bilby'];

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

export function createColleague(options: ColleagueOptions): Colleague {
  const random = options.random ?? Math.random;
  const timers: Timers = options.timers ?? {
    set: (run, ms) => setTimeout(run, ms),
    clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  const state: ColleagueState = { question: null, typing: false, claimed: null, auto: false };
  let heartbeat: unknown = null;
  let step: unknown = null;
  /** Which system he visits next: each in turn, so all three see him. */
  let nextSystem = Math.floor(random() * SYSTEM_ORDER.length);

  const call = async (route: string, body: unknown): Promise<Response> => {
    const request = new Request(`http://demo/portal-api/team/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (
      (await options.team.api(request, `/portal-api/team/${route}`, COLLEAGUE)) ??
      json(404, { detail: 'Not Found' })
    );
  };

  const present = () =>
    call('presence', { tab: 'sam', question: state.question, typing: state.typing });

  /** Bumped whenever the heartbeat stops: a beat in flight then starts no second one. */
  let beats = 0;
  const stopHeartbeat = () => {
    beats += 1;
    if (heartbeat !== null) timers.clear(heartbeat);
    heartbeat = null;
  };
  const beat = () => {
    const generation = beats;
    heartbeat = timers.set(() => {
      if (!state.question || generation !== beats) return;
      void present().finally(() => {
        if (generation === beats) beat();
      });
    }, HEARTBEAT_MS);
  };

  const pick = async (): Promise<Subject | null> => {
    const pending = await options.pending();
    for (let turn = 0; turn < SYSTEM_ORDER.length; turn++) {
      const system = SYSTEM_ORDER[(nextSystem + turn) % SYSTEM_ORDER.length];
      const of = pending.filter((q) => q.source === system);
      if (of.length === 0) continue;
      nextSystem = (nextSystem + turn + 1) % SYSTEM_ORDER.length;
      return of[Math.floor(random() * of.length)] ?? null;
    }
    return null;
  };

  const open = async (question: Subject): Promise<Response> => {
    state.question = question;
    state.typing = false;
    stopHeartbeat();
    const response = await present();
    beat();
    return response;
  };

  const leave = async (): Promise<Response> => {
    const left = state.question;
    state.question = null;
    state.typing = false;
    stopHeartbeat();
    return call('presence', { tab: 'sam', question: null, left: left ?? undefined });
  };

  const claim = async (question: Subject): Promise<Response> => {
    const response = await call('claim', { questions: [question] });
    if (response.ok) state.claimed = question;
    return response;
  };

  const release = async (question: Subject): Promise<Response> => {
    const response = await call('release', { questions: [question] });
    if (
      response.ok &&
      state.claimed?.source === question.source &&
      state.claimed.id === question.id
    )
      state.claimed = null;
    return response;
  };

  // ---- His own comings and goings. ----

  const between = (low: number, high: number) => low + random() * (high - low);
  const later = (ms: number, run: () => Promise<void>) => {
    if (step !== null) timers.clear(step);
    step = timers.set(() => {
      step = null;
      if (!state.auto) return;
      run().catch((error: unknown) => {
        console.warn('[demo] the colleague tripped', error);
        later(between(20_000, 40_000), visit);
      });
    }, ms);
  };

  // Each step checks he is still on his own after every wait: a step told meanwhile wins.
  const visit = async (): Promise<void> => {
    if (!(await (options.autonomous?.() ?? Promise.resolve(true)))) {
      later(between(20_000, 40_000), visit);
      return;
    }
    if (!state.auto) return;
    // Done with his last claim: he lets it go before he opens another question.
    if (state.claimed) await release(state.claimed);
    const question = state.auto ? await pick() : null;
    if (!state.auto) return;
    if (!question) {
      later(between(20_000, 40_000), visit);
      return;
    }
    await open(question);
    later(between(4000, 9000), async () => {
      state.typing = true;
      await present();
      later(between(8000, 16_000), async () => {
        state.typing = false;
        await present();
        if (random() < 0.4 && state.auto) await claim(question);
        later(between(3000, 6000), async () => {
          await leave();
          later(between(20_000, 50_000), visit);
        });
      });
    });
  };

  const stopAuto = () => {
    state.auto = false;
    if (step !== null) timers.clear(step);
    step = null;
  };

  return {
    async act(action, question) {
      if (action === 'auto') {
        if (!state.auto) {
          state.auto = true;
          later(0, visit);
        }
        return json(200, { colleague: COLLEAGUE.id, ...state });
      }
      stopAuto();
      let response: Response;
      if (action === 'open') {
        const target = question ?? (await pick());
        if (!target) return json(409, { detail: 'No pending question for the colleague to open.' });
        response = await open(target);
      } else if (action === 'type') {
        const target = question ?? state.question;
        if (!target) return json(409, { detail: 'The colleague has no question open.' });
        if (question) state.question = question;
        state.typing = true;
        stopHeartbeat();
        response = await present();
        beat();
      } else if (action === 'leave') {
        response = await leave();
      } else {
        const target = question ?? state.question ?? state.claimed;
        if (!target) return json(409, { detail: `Nothing for the colleague to ${action}.` });
        response = action === 'claim' ? await claim(target) : await release(target);
      }
      const body: unknown = await response.json().catch(() => null);
      return json(response.status, { colleague: COLLEAGUE.id, ...state, answer: body });
    },
    state: () => ({ ...state }),
    start() {
      if (state.auto) return;
      state.auto = true;
      // A first visit soon, so a visitor sees him within a minute.
      later(between(8000, 20_000), visit);
    },
    async reset() {
      const wasAuto = state.auto;
      stopAuto();
      state.claimed = null;
      if (state.question) await leave();
      if (wasAuto) this.start();
    },
  };
}
