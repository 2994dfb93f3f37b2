// The team's link to the other replicas (PostgreSQL LISTEN/NOTIFY through the bus start.ts
// passes). What this replica changed goes out one send at a time on the bus's own connection,
// never the database pool answers use: changes made while a send is under way are merged (the
// latest word of each tab; one "claims changed"; the last acts), so a flood of changes costs
// one NOTIFY statement at a time and never a queue. While the link is down nothing is kept:
// when it is back, `resync` re-reads what others changed, says again what this replica has, and
// asks the others to say again what they have (they may have come back first and spoken to no one).
// No Node built-ins (server/team/core.ts runs in the demo's Service Worker too).

/** What a bus connection tells: each message, and whenever the link goes down or comes back. */
export interface BusHandlers {
  message(payload: string): void;
  link(up: boolean, detail: string | null): void;
}

/** A channel between replicas (PostgreSQL LISTEN/NOTIFY, server/db/engine.ts); none embedded. */
export interface TeamBus {
  open(handlers: BusHandlers): Promise<{
    notify(payloads: readonly string[]): Promise<void>;
    close(): Promise<void>;
  }>;
}

export interface LinkState {
  /** `none`: no other replicas (the embedded database). */
  link: 'none' | 'up' | 'down';
  /** Why it is down. */
  detail: string | null;
}

export interface TeamLink {
  /** This replica's word on one tab (`entry` null: it closed its question). */
  presence(tab: string, entry: object | null): void;
  claims(): void;
  acted(message: object): void;
  /** Asks the other replicas to say again what they have (this one missed it while down). */
  askAgain(): void;
  state(): LinkState;
  close(): Promise<void>;
}

/** Messages in one NOTIFY statement; more wait for the next. */
const BATCH_MAX = 200;
/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more. */
const PAYLOAD_MAX = 7_900;
const ACTED_PENDING_MAX = 50;
/** A failure to send is logged once in this long, with how many messages went unsent. */
const LOG_EVERY_MS = 30_000;

export async function openTeamLink(options: {
  bus: TeamBus | null;
  /** This replica's id: its own messages come back to it and are ignored. */
  replica: string;
  log: (line: string) => void;
  now: () => number;
  onMessage: (message: Record<string, unknown>) => void;
  /** The link is back after a loss: re-read claims, say again what this replica has. */
  onResync: () => void;
}): Promise<TeamLink> {
  const { bus, replica, log, now } = options;
  const presence = new Map<string, string>();
  let claims = false;
  let asking = false;
  let acted: string[] = [];
  let sending = false;
  let up = false;
  let downSince: number | null = null;
  let detail: string | null = bus ? 'not connected yet' : null;
  let unsent = 0;
  let loggedAt = Number.NEGATIVE_INFINITY;
  const message = (value: object) => JSON.stringify({ ...value, replica });
  const encoder = new TextEncoder();

  const clear = () => {
    presence.clear();
    claims = false;
    asking = false;
    acted = [];
  };

  const failed = (count: number, reason: string) => {
    unsent += count;
    const at = now();
    if (at - loggedAt < LOG_EVERY_MS) return;
    loggedAt = at;
    log(`[team] could not tell other replicas (${unsent} messages unsent): ${reason}`);
    unsent = 0;
  };

  let channel: Awaited<ReturnType<TeamBus['open']>> | null = null;
  const flush = () => {
    if (sending || !up || !channel) return;
    const batch: string[] = [];
    if (claims) batch.push(message({ kind: 'claims' }));
    claims = false;
    if (asking) batch.push(message({ kind: 'again' }));
    asking = false;
    batch.push(...acted.splice(0, BATCH_MAX));
    for (const [tab, text] of presence) {
      if (batch.length >= BATCH_MAX) break;
      presence.delete(tab);
      batch.push(text);
    }
    const fits = batch.filter((text) => encoder.encode(text).byteLength < PAYLOAD_MAX);
    if (fits.length < batch.length) failed(batch.length - fits.length, 'a message was too long');
    if (fits.length === 0) return;
    sending = true;
    channel
      .notify(fits)
      .catch((error: unknown) =>
        failed(fits.length, error instanceof Error ? error.message : String(error)),
      )
      .finally(() => {
        sending = false;
        flush();
      });
  };

  if (bus) {
    channel = await bus.open({
      message(payload) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(payload);
        } catch {
          return;
        }
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return;
        const record = parsed as Record<string, unknown>;
        if (record.replica !== replica) options.onMessage(record);
      },
      link(isUp, why) {
        if (!isUp) {
          detail = why ?? 'the connection was lost';
          if (up || downSince === null) {
            downSince = now();
            log(
              `[team] lost the link to the other replicas (${detail}): presence and claims stay on this replica until it is back; reconnecting`,
            );
          }
          up = false;
          // Nothing is kept while down: the resync says it all again.
          clear();
          return;
        }
        const wasDown = downSince !== null;
        up = true;
        detail = null;
        if (wasDown) {
          log(
            `[team] the link to the other replicas is back after ${Math.round((now() - (downSince as number)) / 1000)} s: claims re-read, presence sent again`,
          );
        }
        downSince = null;
        if (wasDown) options.onResync();
        flush();
      },
    });
  }

  return {
    presence(tab, entry) {
      if (!bus) return;
      if (!up) return;
      presence.set(tab, message({ kind: 'presence', tab, entry }));
      flush();
    },
    claims() {
      if (!bus || !up) return;
      claims = true;
      flush();
    },
    askAgain() {
      if (!bus || !up) return;
      asking = true;
      flush();
    },
    acted(value) {
      if (!bus || !up) return;
      acted = [...acted, message(value)].slice(-ACTED_PENDING_MAX);
      flush();
    },
    state: () => ({ link: bus ? (up ? 'up' : 'down') : 'none', detail: up ? null : detail }),
    async close() {
      clear();
      await channel?.close();
    },
  };
}
