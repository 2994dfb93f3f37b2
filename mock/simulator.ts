import type { CreateCallInput, PendingToolCallRecord } from './store';

const MINUTE = 60;
const HOUR = 60 * MINUTE;

export const simulatorTemplates: readonly CreateCallInput[] = [
  {
    question:
      'Should the failed payout batch for Tuesday be retried now or after the bank cut-off?',
    answerFormat: 'one of: now, after cut-off',
    tags: ['billing'],
    userId: 'bob@example.com',
    expiresInSeconds: 3 * MINUTE,
  },
  {
    question: 'Which environment should the hotfix for the login timeout go to first?',
    answerFormat: 'one of: staging, production, both',
    tags: ['infra'],
    userId: 'alice@example.com',
    expiresInSeconds: 10 * MINUTE,
  },
  {
    question: 'Is it OK to rotate the read-only database password during business hours?',
    answerFormat: 'yes/no',
    tags: ['security', 'infra'],
    userId: null,
    expiresInSeconds: 30 * MINUTE,
  },
  {
    question: 'How many days of audit logs must we keep for the SOC 2 evidence export?',
    answerFormat: 'number',
    tags: ['security', 'legal'],
    userId: 'u_7f3a',
    expiresInSeconds: 2 * HOUR,
  },
  {
    question:
      'Pied Piper says they were charged twice for September. Should I refund the second charge automatically?',
    answerFormat: 'yes/no',
    tags: ['billing'],
    userId: 'bob@example.com',
    expiresInSeconds: HOUR,
  },
  {
    question: 'Which region and tier should the new tenant "Massive Dynamic" get?',
    answerFormat: 'JSON object with keys region and tier',
    tags: ['onboarding'],
    userId: 'alice@example.com',
    expiresInSeconds: 6 * HOUR,
  },
  {
    question: 'Can I delete the staging snapshots older than 90 days to free 4 TB?',
    answerFormat: 'yes/no',
    tags: ['infra', 'data'],
    userId: null,
    expiresInSeconds: 24 * HOUR,
  },
  {
    question: 'What should the welcome email say about the data import timeline for Cyberdyne?',
    answerFormat: 'free text',
    tags: ['onboarding'],
    userId: 'u_7f3a',
    expiresInSeconds: 12 * HOUR,
  },
  {
    question: 'Does the new DPA with Tyrell Corp allow sub-processors outside the EU?',
    answerFormat: 'yes/no',
    tags: ['legal'],
    userId: 'alice@example.com',
    expiresInSeconds: 8 * HOUR,
  },
  {
    question: 'Which cost center should the new GPU instances be billed to?',
    answerFormat: 'one of: research, platform, customer success',
    tags: ['billing', 'infra'],
    userId: 'bob@example.com',
    expiresInSeconds: 4 * HOUR,
  },
  {
    question: 'Should customer-uploaded CSVs be scanned for PII before they reach the warehouse?',
    answerFormat: 'yes/no',
    tags: ['data', 'security'],
    userId: null,
    expiresInSeconds: 5 * MINUTE,
  },
  {
    question: 'What discount (in percent) may I offer Hooli for a three-year commitment?',
    answerFormat: 'number',
    tags: ['billing'],
    userId: 'alice@example.com',
    expiresInSeconds: 20 * MINUTE,
  },
  {
    question: 'The user u_7f3a asked for admin rights on the billing workspace. Grant them?',
    answerFormat: 'yes/no',
    tags: ['security'],
    userId: 'u_7f3a',
    expiresInSeconds: 45 * MINUTE,
  },
  {
    question: 'Which contact should receive the monthly usage report for Oscorp?',
    answerFormat: null,
    tags: ['onboarding', 'data'],
    userId: 'bob@example.com',
    expiresInSeconds: 3 * HOUR,
  },
  {
    question: 'Is the "events_raw" Kafka topic allowed to keep messages for 14 days instead of 7?',
    answerFormat: 'yes/no',
    tags: ['data', 'infra'],
    userId: null,
    expiresInSeconds: 18 * HOUR,
  },
];

export type Ask = (input: CreateCallInput) => { created: boolean; call: PendingToolCallRecord };

export interface Simulator {
  /** Ask one question now (through `ask`, or the given one). */
  tick(ask?: Ask): { created: boolean; call: PendingToolCallRecord };
  start(): void;
  stop(): void;
}

// Deterministic so a demo run can be replayed.
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createSimulator(options: {
  intervalMs: number;
  ask: Ask;
  randomSeed?: number;
}): Simulator {
  const random = mulberry32(options.randomSeed ?? 20_241_130);
  let timer: ReturnType<typeof setInterval> | null = null;

  function tick(ask: Ask = options.ask) {
    const index = Math.floor(random() * simulatorTemplates.length);
    const template = simulatorTemplates[index] ?? simulatorTemplates[0];
    if (!template) throw new Error('simulator has no templates');
    return ask(template);
  }

  return {
    tick,
    start() {
      if (timer !== null || options.intervalMs <= 0) return;
      timer = setInterval(() => tick(), options.intervalMs);
      unref(timer);
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}

export function unref(timer: unknown): void {
  if (timer && typeof timer === 'object' && 'unref' in timer && typeof timer.unref === 'function') {
    timer.unref();
  }
}
