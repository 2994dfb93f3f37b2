import type { SeedName } from '../source-kit';
import {
  type BilbyQuestion,
  type ConversationStore,
  createConversationStore,
  type NewConversation,
  toolCallId,
  uuid,
} from './store';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The organization the mock's API key belongs to. */
export const BILBY_ORGANIZATION_ID = '6f1c2a9e-4b7d-4c1e-9a2f-3d5e7b9c1a2f';

/** Demo conversations and tool calls that tests and journeys refer to. */
export const bilbyDemoIds = {
  database: uuid('database'),
  databaseCall: toolCallId('database'),
  launch: uuid('launch'),
  launchCall: toolCallId('launch'),
  naming: uuid('naming'),
  namingCall: toolCallId('naming'),
  busy: uuid('busy'),
  busyCall: toolCallId('busy'),
  twoCalls: uuid('two-calls'),
  twoCallsFirst: toolCallId('two-calls-1'),
  twoCallsSecond: toolCallId('two-calls-2'),
  quiet: uuid('quiet'),
} as const;

const ids = bilbyDemoIds;

/** How long the demo's busy conversation keeps its agent's turn running. */
export const BUSY_DEMO_MS = 10 * MINUTE;

const postgres: BilbyQuestion = {
  question: 'Which Postgres version should the new analytics database run?',
  header: 'Postgres',
  options: [
    { label: 'Postgres 16', description: 'What production runs today' },
    { label: 'Postgres 17', description: 'Newest; faster vacuum and JSON_TABLE' },
  ],
  multiSelect: false,
};

const extensions: BilbyQuestion = {
  question: 'Which extensions should be installed from the start?',
  header: 'Extensions',
  options: [
    { label: 'pg_stat_statements', description: 'Query statistics' },
    { label: 'PostGIS', description: 'Geospatial types and indexes' },
    { label: 'pgvector', description: 'Vector similarity search' },
    { label: 'TimescaleDB', description: 'Time-series tables' },
  ],
  multiSelect: true,
};

const demo: NewConversation[] = [
  {
    id: ids.database,
    title: 'Analytics database setup',
    updatedAgoMs: 4 * MINUTE,
    pending: [
      { toolCallId: ids.databaseCall, createdAgoMs: 4 * MINUTE, questions: [postgres, extensions] },
    ],
  },
  {
    id: ids.launch,
    title: 'Spring launch email',
    updatedAgoMs: 18 * MINUTE,
    pending: [
      {
        toolCallId: ids.launchCall,
        createdAgoMs: 18 * MINUTE,
        questions: [
          {
            question: 'Which audiences should get the spring launch email?',
            header: 'Audiences',
            options: [
              { label: 'Customers', description: 'Everyone with an active plan' },
              { label: 'Trial users', description: 'Started a trial in the last 30 days' },
              { label: 'Newsletter', description: 'Subscribed to the monthly newsletter' },
            ],
            multiSelect: true,
          },
        ],
      },
    ],
  },
  {
    id: ids.naming,
    title: 'Name for the billing service',
    updatedAgoMs: 35 * MINUTE,
    pending: [
      {
        toolCallId: ids.namingCall,
        createdAgoMs: 35 * MINUTE,
        // The options are suggestions; the reviewer may well write a name of their own ("other").
        questions: [
          {
            question: 'What should the new billing service be called? Pick one or write your own.',
            header: 'Name',
            options: [
              { label: 'ledger', description: 'Plain and descriptive' },
              { label: 'abacus', description: 'A nod to the old system' },
            ],
            multiSelect: false,
          },
        ],
      },
    ],
  },
  {
    id: ids.busy,
    title: 'Quarterly report draft',
    updatedAgoMs: 1 * MINUTE,
    runningForMs: BUSY_DEMO_MS,
    pending: [
      {
        toolCallId: ids.busyCall,
        createdAgoMs: 50 * MINUTE,
        questions: [
          {
            question: 'Should the quarterly report compare against last quarter or last year?',
            header: 'Baseline',
            options: [
              { label: 'Last quarter', description: 'Q3 2026' },
              { label: 'Last year', description: 'Q4 2025' },
            ],
            multiSelect: false,
          },
        ],
      },
    ],
  },
  {
    id: ids.twoCalls,
    title: 'Office move checklist',
    updatedAgoMs: 2 * HOUR,
    pending: [
      {
        toolCallId: ids.twoCallsFirst,
        createdAgoMs: 3 * HOUR,
        questions: [
          {
            question: 'Which day should the movers come?',
            header: 'Moving day',
            options: [
              { label: 'Friday', description: 'Office closed from noon' },
              { label: 'Saturday', description: 'Weekend rate, +20 %' },
            ],
            multiSelect: false,
          },
        ],
      },
      {
        toolCallId: ids.twoCallsSecond,
        createdAgoMs: 2 * HOUR,
        questions: [
          {
            question: 'Is the new office’s Wi-Fi ready for the first day?',
            header: 'Wi-Fi',
            options: [
              { label: 'Yes', description: 'Tested by IT' },
              { label: 'No', description: 'Bring the LTE routers' },
            ],
            multiSelect: false,
          },
        ],
      },
    ],
  },
  { id: ids.quiet, title: 'Weekly standup notes', updatedAgoMs: 20 * MINUTE },
];

// Enough further conversations that the list takes several pages of five.
const quietTitles = [
  'Customer interview synthesis',
  'Hiring plan for Q1',
  'Vendor security questionnaire',
  'Release notes 4.12',
  'Support macros cleanup',
  'Board deck outline',
  'Pricing page copy',
];

function seedStore(store: ConversationStore): void {
  for (const conversation of demo) store.create(conversation);
  quietTitles.forEach((title, index) => {
    const pending =
      index === 2
        ? [
            {
              toolCallId: toolCallId('questionnaire'),
              createdAgoMs: 5 * HOUR,
              questions: [
                {
                  question:
                    'May I answer the questionnaire’s encryption section from our SOC 2 report?',
                  header: 'Encryption',
                  options: [
                    { label: 'Yes', description: 'Quote the SOC 2 report' },
                    { label: 'No', description: 'Ask the security team first' },
                  ],
                  multiSelect: false,
                },
              ],
            },
          ]
        : [];
    store.create({ id: uuid(`quiet-${index}`), title, updatedAgoMs: (index + 3) * HOUR, pending });
  });
}

export function buildBilbyStore(seed: SeedName, now: () => number): ConversationStore {
  const store = createConversationStore(now);
  if (seed === 'demo') seedStore(store);
  return store;
}

/** What the simulator's agent asks, in turn (each becomes a new conversation). */
export const bilbySimulatorTemplates: readonly { title: string; questions: BilbyQuestion[] }[] = [
  {
    title: 'Blog post on the outage',
    questions: [
      {
        question: 'How much detail should the outage post give about the root cause?',
        header: 'Detail',
        options: [
          { label: 'Full timeline', description: 'Every step, with times' },
          { label: 'Summary', description: 'Cause and fix in two paragraphs' },
        ],
        multiSelect: false,
      },
    ],
  },
  {
    title: 'Team offsite',
    questions: [
      {
        question: 'Which activities should the offsite include?',
        header: 'Activities',
        options: [
          { label: 'Hike', description: 'Half a day outdoors' },
          { label: 'Workshop', description: 'Roadmap planning' },
          { label: 'Dinner', description: 'Evening, all together' },
        ],
        multiSelect: true,
      },
      {
        question: 'Where should it take place?',
        header: 'Place',
        options: [
          { label: 'Lisbon', description: 'Flights for everyone' },
          { label: 'In town', description: 'No travel' },
        ],
        multiSelect: false,
      },
    ],
  },
  {
    title: 'Dependency upgrades',
    questions: [
      {
        question: 'Upgrade React to 19.3 this sprint?',
        header: 'React',
        options: [
          { label: 'Yes', description: 'Tests are green on a branch' },
          { label: 'Later', description: 'After the release freeze' },
        ],
        multiSelect: false,
      },
    ],
  },
];
