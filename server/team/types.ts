// Who is on it, in words the server, its queries and the static demo's Service Worker share:
// claims and where they are kept, the team's settings, who views what, the snapshot every browser
// receives, and the team's routes as a whole (no Node built-ins).
import type { TrailStore } from '../audit/types';
import type { IdentityConfig, Reviewer } from '../identity/identity';
import type { LinkState, TeamBus } from './link';

/** Who holds a question, until when. */
export interface Claim {
  sourceId: string;
  questionId: string;
  reviewer: string;
  reviewerName: string | null;
  claimedAt: string;
  expiresAt: string;
}

export type ClaimResult =
  | { ok: true; claim: Claim }
  | { ok: false; reason: 'held'; holder: Claim }
  | { ok: false; reason: 'limit'; held: number };

/** Where claims are kept: the portal's database (server/team/sql.ts) or memory (memoryClaims). */
export interface ClaimStore {
  /**
   * Claims a question for `reviewer` for `minutes` (renews their own claim). Refused while someone
   * else's unexpired claim holds it, or when the reviewer already holds `maxClaims` others.
   */
  take(
    claim: { sourceId: string; questionId: string; reviewer: string; reviewerName: string | null },
    minutes: number,
    maxClaims: number,
  ): Promise<ClaimResult>;
  /** Removes claims on these questions: `reviewer`'s only, or anyone's (null: the question was answered). */
  drop(sourceId: string, questionIds: string[], reviewer: string | null): Promise<Claim[]>;
  /** Every unexpired claim, oldest first. */
  list(): Promise<Claim[]>;
  /** Removes expired claims; returns them. */
  prune(): Promise<Claim[]>;
}

export interface TeamConfig {
  /** CLAIM_MINUTES: how long a claim holds (default 15; a fraction for tests). */
  claimMinutes: number;
  /** MAX_CLAIMS: claims one reviewer may hold at once (default 50). */
  maxClaims: number;
  /** PRESENCE_TTL_SECONDS: a viewer without a heartbeat for this long is gone (default 25). */
  presenceTtlSeconds: number;
  /** MAX_EVENT_STREAMS: event streams this server holds in all (default 500). */
  maxEventStreams: number;
  /** MAX_PRESENCE_PER_SECOND: presence messages this server takes a second, from everyone. */
  maxPresencePerSecond: number;
}

export const DEFAULT_TEAM_CONFIG: TeamConfig = {
  claimMinutes: 15,
  maxClaims: 50,
  presenceTtlSeconds: 25,
  maxEventStreams: 500,
  maxPresencePerSecond: 200,
};

/** A system the portal reads, as config.json's `sources` name it (server/proxy/systems.ts). */
export interface TeamSystem {
  id: string;
  kind: string;
}

export interface TeamCoreOptions {
  claims: ClaimStore;
  /**
   * The systems the portal reads: claims and presence name one of these, and the trail records
   * the kind given here, never one a browser sent.
   */
  systems: readonly TeamSystem[];
  /** Where claims and releases are recorded (the audit trail). */
  trail: Pick<TrailStore, 'insertAttempts' | 'insertOutcome'>;
  identity: IdentityConfig;
  config?: Partial<TeamConfig>;
  bus?: TeamBus | null;
  log?: (line: string) => void;
  /** Tests: the clock presence is kept by. */
  now?: () => number;
  /**
   * Where the server watches the systems (server/watch/): what every snapshot says of it, so a
   * browser knows its lists come from the server's copy and which version it is at.
   */
  watch?: () => WatchState | null;
  /**
   * Whether the browser making this request reads the lists from the server's copy. One that
   * does not (a browser on one of the mocks' test tenants, which read the mock itself) gets no
   * `watch` and no list changes on its stream, and keeps polling.
   */
  readsCopy?: (request: Request) => boolean;
}

/** What a snapshot says of the server's watching (absent where no server watches: the demo). */
export interface WatchState {
  /** WATCH_INTERVAL_SECONDS. */
  intervalSeconds: number;
  /** The sources the server watches. */
  sources: string[];
  /** The copy's version of each, as this replica's streams last told it. */
  versions: Record<string, number>;
}

/** One reviewer on one question, as every browser sees it. */
export interface Viewer {
  sourceId: string;
  questionId: string;
  reviewer: string;
  reviewerName: string | null;
  typing: boolean;
}

/** A question a reviewer acted on through the portal (answer, edit, not applicable, cancel). */
export interface Acted {
  sourceId: string;
  questionId: string;
  reviewer: string;
  at: string;
}

export interface TeamSnapshot {
  viewers: Viewer[];
  claims: Claim[];
  /**
   * The last minute's actions (at most 100): other reviewers' browsers refresh that question's
   * History, who acted and, when it is open, the question itself, without waiting for a poll.
   */
  acted: Acted[];
  /** The server's clock, so a browser with a skewed one still counts claims down right. */
  serverTime: string;
  watch?: WatchState;
}

export interface Team {
  /**
   * `/portal-api/team/…`, or null when the path is not the team's. `as`: the reviewer to act as,
   * instead of the one the request names (the demo's simulated colleague).
   */
  api(request: Request, innerPath: string, as?: Reviewer): Promise<Response | null>;
  /**
   * A question was answered through the portal: its claims go, and every stream hears who acted
   * on it.
   */
  answered(sourceId: string, questionIds: string[], reviewer?: string): Promise<void>;
  /**
   * Questions the watcher saw close (answered elsewhere, expired, cancelled, gone): their claims go,
   * so a claim on a question no longer pending never counts or shows. Ids as the system names them.
   */
  closed(sourceId: string, questionIds: string[]): Promise<void>;
  /** Claims changed outside the team's routes (the demo's reset): every stream hears of it. */
  claimsChanged(): Promise<void>;
  /** Whether presence and claims reach the other replicas now (`/readyz`). */
  link(): LinkState;
  /** A change of the server's copy of the lists (`event: questions`), to every stream in order. */
  change(data: string): void;
  /** Event streams open on this replica (`/metrics`). */
  streams(): number;
  close(): Promise<void>;
}

/** The PostgreSQL NOTIFY channel replicas share presence and claim changes on. */
export const TEAM_CHANNEL = 'qi_team';
