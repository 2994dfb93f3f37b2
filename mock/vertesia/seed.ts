import type { SeedName } from '../source-kit';
import { type AskStore, createAskStore, hexId, type NewAsk } from './store';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Ids of the demo asks tests and journeys refer to. */
export const vertesiaDemoIds = {
  twoQuestions: hexId('two-questions'),
  contract: hexId('contract'),
  refund: hexId('refund'),
  duplicates: hexId('duplicates'),
  expiringSoon: hexId('expiring-soon'),
  withTask: hexId('with-task'),
  threeQuestions: hexId('three-questions'),
  resolved: hexId('resolved'),
  expired: hexId('expired'),
} as const;

const ids = vertesiaDemoIds;

const demo: NewAsk[] = [
  {
    askId: ids.twoQuestions,
    agentName: 'Onboarding agent',
    questions: [
      'Which region should the new workspace for Acme Corp live in?',
      'Who should own the workspace: Dana Whitfield or the Acme IT team?',
    ],
    timeoutHours: 24,
    createdAgoMs: 12 * MINUTE,
  },
  {
    askId: ids.contract,
    agentName: 'Contract reviewer',
    questions: [
      'Clause 7.2 of the Globex MSA caps our liability at 2× annual fees. Accept it, or push back for 1×?',
    ],
    timeoutHours: 8,
    createdAgoMs: 40 * MINUTE,
  },
  {
    askId: ids.refund,
    agentName: 'Support triage',
    questions: [
      'Customer #4821 asks for a refund 41 days after purchase (the window is 30). Approve it?',
    ],
    timeoutHours: 4,
    createdAgoMs: 25 * MINUTE,
    userChannels: [
      { type: 'interactive' },
      { type: 'email', to_email: 'support-leads@example.com' },
    ],
  },
  {
    askId: ids.duplicates,
    agentName: 'Data pipeline',
    questions: [
      'The nightly CRM import found 312 rows that look like duplicates. Drop them, or keep both copies and flag them?',
    ],
    timeoutHours: 12,
    createdAgoMs: 3 * HOUR,
    userChannels: [
      {
        type: 'email',
        to_email: 'data-team@example.com',
        thread_subject: 'Nightly CRM import: duplicates',
      },
    ],
  },
  {
    askId: ids.expiringSoon,
    agentName: 'Release assistant',
    questions: ['Release 4.12 is ready. Ship it to production before the 17:00 freeze?'],
    timeoutHours: 0.25,
    createdAgoMs: 9 * MINUTE,
  },
  {
    askId: ids.withTask,
    agentName: 'Procurement agent',
    questions: ['Which vendor should get the laptop order: Lenovo (€41,200) or Dell (€39,800)?'],
    timeoutHours: 48,
    createdAgoMs: 2 * HOUR,
    taskId: hexId('task-laptops'),
  },
  {
    askId: ids.threeQuestions,
    agentName: 'Onboarding agent',
    questions: [
      'What start date should Initech’s onboarding plan use?',
      'How many seats should the first invoice cover?',
      'Should their data import run before or after the kick-off call?',
    ],
    timeoutHours: 72,
    createdAgoMs: 5 * HOUR,
  },
];

function seedStore(store: AskStore): void {
  for (const ask of demo) store.register(ask);
  store.register({
    askId: ids.resolved,
    agentName: 'Support triage',
    questions: ['May I share the incident report with the customer’s security team?'],
    timeoutHours: 24,
    createdAgoMs: 6 * HOUR,
  });
  store.resolve(ids.resolved, 'Yes, but remove the internal hostnames first.');
  store.register({
    askId: ids.expired,
    agentName: 'Release assistant',
    questions: ['Roll back 4.11.2 on eu1 while the error rate is above 2 %?'],
    timeoutHours: 1,
    createdAgoMs: 3 * HOUR,
  });
}

export function buildVertesiaStore(seed: SeedName, now: () => number): AskStore {
  const store = createAskStore(now);
  if (seed === 'demo') seedStore(store);
  return store;
}

/** What the simulator's agents ask, in turn. */
export const vertesiaSimulatorTemplates: readonly NewAsk[] = [
  {
    agentName: 'Support triage',
    questions: ['A customer wants their account deleted today. Skip the 14-day grace period?'],
    timeoutHours: 2,
  },
  {
    agentName: 'Contract reviewer',
    questions: [
      'Umbrella’s NDA has no end date. Accept a perpetual NDA?',
      'If not, how many years should I propose?',
    ],
    timeoutHours: 6,
  },
  {
    agentName: 'Data pipeline',
    questions: ['The warehouse is at 91 % of its quota. Archive events older than 2 years?'],
    timeoutHours: 1,
  },
  {
    agentName: 'Procurement agent',
    questions: ['The SaaS renewal for Figma went up 18 %. Renew, or ask for a quote from Penpot?'],
    timeoutHours: 24,
  },
  {
    agentName: 'Onboarding agent',
    questions: ['Which Slack channel should Stark Industries’ alerts go to?'],
    timeoutHours: 0.5,
  },
];
