import { sha256Base64Url, sha256Hex } from './hash';
import {
  ASK_HUMAN,
  buildRow,
  type CallRow,
  type CallStatus,
  DEFAULT_ORG,
  DEFAULT_VALID_FOR_SECONDS,
  type JsonObject,
  notApplicableResult,
} from './store';

export type SeedName = 'demo' | 'empty';

export const OTHER_ORG = 'org_other';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const m = (n: number) => n * MINUTE;
const h = (n: number) => n * HOUR;
const d = (n: number) => n * DAY;

interface SeedEntry {
  key: string;
  question: string;
  format: string | null;
  tags: string[];
  user: string | null;
  status: CallStatus;
  /** ms before now */
  createdAgo: number;
  /** ms from creation; default 24 h */
  expiresAfter?: number;
  org?: string;
  tool?: string;
  args?: JsonObject;
  /** ms before now */
  resolvedAgo?: number;
  validFor?: number;
  result?: JsonObject;
  supersededBy?: string;
}

export function seedId(key: string): string {
  return `ptc_${sha256Hex(`questions-inbox-demo/${key}`).slice(0, 32)}`;
}

function unbrokenToken(length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i += 1) {
    out += sha256Base64Url(`sig-${i}`);
  }
  return out.slice(0, length);
}

const YES_NO = 'yes/no';
const NUMBER = 'number';
const FREE_TEXT = 'free text';
const JSON_REGION_TIER = 'JSON object with keys region and tier';
const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';
const U7F3A = 'u_7f3a';

const ORDERS_V2 =
  'Is the `orders_v2` table in the analytics warehouse safe to drop? No query has read it in the last 60 days and it holds 1.2 TB.';
const RECORDING_RETENTION =
  'What retention period applies to recorded support calls? The agent needs it to schedule the deletion job.';

const GDPR_REQUEST = [
  'A data subject (ticket #58213, customer account "Northwind Traders", contact m.jensen@northwind.example) has asked us to erase all of their personal data under GDPR Article 17.',
  'I found their records in four systems: the CRM (contact, 14 notes), the support desk (31 tickets with attachments), the billing system (invoices from 2021 to 2024) and the product analytics warehouse (about 48,000 events keyed by their user id). The billing records are probably covered by the statutory retention obligation, and two of the support tickets are referenced in an open legal hold (LH-2024-07).',
  'How should I proceed? Please say which systems to erase now, which to anonymise instead, and whether the legal hold blocks the whole request or only the two tickets. If we need to reply to the customer before the one-month deadline (in 9 days), tell me what to say.',
].join('\n\n');

const HOSTILE_MARKUP =
  'The imported Zendesk ticket #99120 has the title <script>alert("xss")</script> and its description contains <img src=x onerror=alert(1)>. The linked runbook is <a href="javascript:alert(1)">javascript:alert(1)</a>. Should I import this ticket as is, strip the HTML, or skip it?';

const ZERO_WIDTH =
  'The alert names the bucket "acme\u200b-prod\u200c-backups\u200d" (copied from the alert, it seems to contain invisible characters\u2060). Is it the same bucket as acme-prod-backups, and should I make it private?';

const LONG_TOKEN = `The Stripe webhook for evt_1PX93k failed signature verification. Which secret should I rotate: the one in Vault or the one in the CI settings? The received signature header was: ${unbrokenToken(3000)}`;

const APOLOGY_ANSWER = [
  'Subject: About the outage on March 14',
  'Hi {first_name}, on March 14 between 09:12 and 10:47 UTC our API returned errors for about a third of requests. No data was lost. We have added a second database replica and an alert that pages us within two minutes. We are crediting 10% of this month\u2019s invoice automatically.',
  'Sorry for the disruption, and thank you for your patience. — The Acme team',
].join('\n\n');

function demoEntries(): SeedEntry[] {
  return [
    // Pending, soonest expiry first.
    {
      key: 'deploy-target',
      question:
        'Which environment should the nightly data-export job deploy to? The job config lists both staging and production, and the last three runs went to staging.',
      format: 'one of: staging, production, both',
      tags: ['infra'],
      user: ALICE,
      status: 'pending',
      createdAgo: h(24) - m(2),
    },
    {
      key: 'credit-note',
      question:
        'ACME Corp disputes invoice INV-2024-0117 ($4,830.00): they say the March seat count was 42, not 48. Should I issue a credit note for the 6-seat difference?',
      format: YES_NO,
      tags: ['billing'],
      user: BOB,
      status: 'pending',
      createdAgo: h(24) - m(4),
    },
    {
      key: 'clickstream-retention',
      question:
        'How many days should raw clickstream events be retained before aggregation? The policy document says 90, but the warehouse TTL is set to 30.',
      format: NUMBER,
      tags: ['data', 'legal'],
      user: U7F3A,
      status: 'pending',
      createdAgo: h(24) - m(9),
    },
    {
      key: 'globex-region',
      question:
        'Which region and support tier should the new tenant "Globex (EU)" be provisioned with? Their contract mentions EU data residency but not the tier.',
      format: JSON_REGION_TIER,
      tags: ['onboarding'],
      user: ALICE,
      status: 'pending',
      createdAgo: m(10),
      expiresAfter: h(1),
    },
    {
      key: 'gdpr-erasure',
      question: GDPR_REQUEST,
      format: FREE_TEXT,
      tags: ['legal', 'data'],
      user: null,
      status: 'pending',
      createdAgo: h(2),
    },
    {
      key: 'approve-deployment',
      tool: 'approve_deployment',
      question:
        'Approve deploying billing-api v2.14.0 to production? It includes one database migration and turns on multi-currency invoices for 10% of tenants.',
      format: null,
      args: {
        service: 'billing-api',
        version: 'v2.14.0',
        environment: 'production',
        change_ticket: 'CHG-2291',
        requested_by: 'deploy-agent',
        diff_summary: {
          files_changed: 37,
          migrations: ['2024_06_add_invoice_currency'],
          feature_flags: { multi_currency: { from: 'off', to: '10%' } },
        },
        checks: { unit: 'passed', integration: 'passed', canary_error_rate: 0.002 },
        rollback_plan: 'helm rollback billing-api 41',
      },
      tags: ['infra', 'security'],
      user: BOB,
      status: 'pending',
      createdAgo: m(40),
      expiresAfter: h(3) + m(40),
    },
    {
      key: 'choose-vendor',
      tool: 'choose_vendor',
      question: 'Which vendor should send SMS one-time passcodes for the EU launch?',
      format: null,
      args: {
        options: [
          { vendor: 'Twilio', price_per_sms_eur: 0.0725, eu_data_residency: true, sla: '99.95%' },
          {
            vendor: 'MessageBird',
            price_per_sms_eur: 0.061,
            eu_data_residency: true,
            sla: '99.9%',
          },
          { vendor: 'Vonage', price_per_sms_eur: 0.0689, eu_data_residency: false, sla: '99.95%' },
        ],
        monthly_volume_estimate: 180000,
        decision_needed_by: 'two weeks before launch',
      },
      tags: ['billing'],
      user: ALICE,
      status: 'pending',
      createdAgo: h(4),
    },
    {
      key: 'hostile-markup',
      question: HOSTILE_MARKUP,
      format: 'one of: import as is, strip HTML, skip ticket',
      tags: ['security'],
      user: BOB,
      status: 'pending',
      createdAgo: h(5),
    },
    {
      key: 'japanese',
      question:
        '顧客から請求書の宛名を「株式会社サンプル」に変更するよう依頼がありました。過去の請求書も新しい宛名で再発行すべきですか？',
      format: YES_NO,
      tags: ['billing'],
      user: U7F3A,
      status: 'pending',
      createdAgo: h(6),
    },
    {
      key: 'arabic',
      question:
        'طلب العميل حذف جميع بياناته الشخصية من النظام. هل يجب أن نحتفظ بسجلات الفواتير لمدة سبع سنوات وفقًا للقانون المحلي؟',
      format: YES_NO,
      tags: ['legal'],
      user: null,
      status: 'pending',
      createdAgo: h(7),
    },
    {
      key: 'cyrillic-emoji',
      question:
        'Клиент просит перенести вебинар по онбордингу на следующую неделю 🗓️. Какую дату и время предложить? 🙏',
      format: FREE_TEXT,
      tags: ['onboarding'],
      user: ALICE,
      status: 'pending',
      createdAgo: h(8),
    },
    {
      key: 'zero-width',
      question: ZERO_WIDTH,
      format: YES_NO,
      tags: ['security', 'infra'],
      user: null,
      status: 'pending',
      createdAgo: h(9),
    },
    {
      key: 'long-token',
      question: LONG_TOKEN,
      format: null,
      tags: ['security'],
      user: BOB,
      status: 'pending',
      createdAgo: h(10),
    },
    {
      key: 'orders-v2-first',
      question: ORDERS_V2,
      format: YES_NO,
      tags: ['data'],
      user: BOB,
      status: 'pending',
      createdAgo: h(3),
    },
    {
      key: 'orders-v2-second',
      question: ORDERS_V2,
      format: YES_NO,
      tags: ['data'],
      user: BOB,
      status: 'pending',
      createdAgo: h(1),
    },
    {
      key: 'orders-v2-third',
      question: ORDERS_V2,
      format: YES_NO,
      tags: ['data'],
      user: BOB,
      status: 'pending',
      createdAgo: m(20),
    },
    {
      key: 'initech-seats',
      question:
        'How many seats should the Initech renewal quote include? They have 212 active users but asked to drop the 30 contractor accounts.',
      format: NUMBER,
      tags: ['billing'],
      user: ALICE,
      status: 'pending',
      createdAgo: m(25),
    },
    {
      key: 'kickoff-call',
      question: 'Who should run the kickoff call with Soylent Corp on Thursday?',
      format: 'one of: alice, bob',
      tags: ['onboarding'],
      user: U7F3A,
      status: 'pending',
      createdAgo: m(3),
    },
    {
      key: 'mfa-contractors',
      question: 'Should MFA be enforced for contractor accounts starting next Monday?',
      format: YES_NO,
      tags: ['security'],
      user: BOB,
      status: 'pending',
      createdAgo: h(11),
    },
    {
      key: 'nat-gateway',
      question:
        'The AWS bill for this month is tracking 38% above forecast, mostly NAT gateway traffic in eu-central-1. Should I open a ticket with the networking team now or wait for the month-end report?',
      format: 'one of: open ticket, wait for month-end report',
      tags: ['infra', 'billing'],
      user: ALICE,
      status: 'pending',
      createdAgo: h(12),
    },
    {
      key: 'email-not-null',
      question:
        'Can the customers.email column be made NOT NULL? 214 rows currently have no email; I would backfill them with "unknown@invalid".',
      format: YES_NO,
      tags: ['data'],
      user: U7F3A,
      status: 'pending',
      createdAgo: h(13),
    },

    // Resolved.
    {
      key: 'db-failover',
      question:
        'Should the primary Postgres cluster fail over to us-east-2 during tonight\u2019s maintenance window?',
      format: YES_NO,
      tags: ['infra'],
      user: ALICE,
      status: 'resolved',
      createdAgo: d(1) + h(2),
      resolvedAgo: d(1) + h(1),
      result: { answer: 'No. Replica lag is still 40 s; wait for the 02:00 UTC window.' },
    },
    {
      key: 'refund-threshold',
      question: 'What is the largest refund (in USD) I may approve without escalating to finance?',
      format: NUMBER,
      tags: ['billing'],
      user: BOB,
      status: 'resolved',
      createdAgo: d(2),
      resolvedAgo: d(2) - h(1),
      result: { answer: '500' },
    },
    {
      key: 'hooli-not-applicable',
      question: 'What was the original signing date of the Hooli 2019 pilot contract?',
      format: FREE_TEXT,
      tags: ['legal'],
      user: null,
      status: 'resolved',
      createdAgo: d(1) + h(6),
      resolvedAgo: d(1) + h(5),
      result: notApplicableResult(),
    },
    {
      key: 'initrode-region',
      question: 'Which region and support tier should Initrode be provisioned with?',
      format: JSON_REGION_TIER,
      tags: ['onboarding'],
      user: ALICE,
      status: 'resolved',
      createdAgo: h(30),
      resolvedAgo: h(29),
      result: { answer: '{"region": "us-east-1", "tier": "enterprise"}' },
    },
    {
      key: 'apology-email',
      question: 'How should I word the apology email for the March 14 outage?',
      format: FREE_TEXT,
      tags: ['onboarding', 'billing'],
      user: BOB,
      status: 'resolved',
      createdAgo: h(20),
      resolvedAgo: h(19),
      result: { answer: APOLOGY_ANSWER },
    },
    {
      key: 'staging-freeze',
      question: 'Is the staging deploy freeze still in effect?',
      format: YES_NO,
      tags: ['infra'],
      user: U7F3A,
      status: 'resolved',
      createdAgo: h(3) + m(30),
      resolvedAgo: h(1),
      validFor: h(2),
      result: { answer: 'yes, until 18:00 UTC' },
    },
    {
      key: 'container-platform',
      question: 'Which container platform should new services default to?',
      format: 'one of: AWS ECS, Google Cloud Run, Kubernetes',
      tags: ['infra'],
      user: null,
      status: 'resolved',
      createdAgo: d(3),
      resolvedAgo: d(3) - h(2),
      result: { answer: 'AWS ECS', confidence: 0.9 },
    },
    {
      key: 'pii-masking',
      question: 'Should email addresses be masked in the weekly analytics export sent to partners?',
      format: YES_NO,
      tags: ['data', 'security'],
      user: ALICE,
      status: 'resolved',
      createdAgo: d(4),
      resolvedAgo: d(4) - h(3),
      result: { answer: 'yes' },
    },
    {
      key: 'onboarding-channel',
      question: 'Which Slack channel should onboarding alerts be posted to?',
      format: FREE_TEXT,
      tags: ['onboarding'],
      user: BOB,
      status: 'resolved',
      createdAgo: d(5),
      resolvedAgo: d(5) - m(20),
      result: { answer: '#cs-onboarding' },
    },
    {
      key: 'confirm-refund',
      tool: 'confirm_refund',
      question:
        'Confirm a refund of $129.00 to Dunder Mifflin for the duplicate charge on invoice INV-2024-0342?',
      format: null,
      args: {
        customer: 'Dunder Mifflin',
        invoice: 'INV-2024-0342',
        amount_usd: 129,
        reason: 'duplicate_charge',
        payment_method: 'card ending 4242',
      },
      tags: ['billing'],
      user: BOB,
      status: 'resolved',
      createdAgo: d(1) + h(10),
      resolvedAgo: d(1) + h(9),
      result: {
        approved: true,
        amount_usd: 129,
        approver: BOB,
        note: 'Duplicate confirmed in Stripe; refund to the original card.',
      },
    },
    {
      key: 'recording-retention-new',
      question: RECORDING_RETENTION,
      format: FREE_TEXT,
      tags: ['legal', 'data'],
      user: ALICE,
      status: 'resolved',
      createdAgo: d(1),
      resolvedAgo: h(22),
      result: { answer: '30 days. Legal updated the policy on June 1; delete older recordings.' },
    },
    {
      key: 'q3-price-list',
      question: 'Is the Q3 price list still the one to quote from?',
      format: YES_NO,
      tags: ['billing'],
      user: ALICE,
      status: 'resolved',
      createdAgo: d(40),
      resolvedAgo: d(39),
      result: { answer: 'yes' },
    },
    {
      key: 'norway-vat',
      question:
        'Which VAT rate (in percent) applies to digital services sold to consumers in Norway?',
      format: NUMBER,
      tags: ['billing', 'legal'],
      user: U7F3A,
      status: 'resolved',
      createdAgo: d(6),
      resolvedAgo: d(6) - h(4),
      result: { answer: '25' },
    },

    // The look-alikes above were asked and answered before ("Answered before" in the drawer).
    {
      key: 'orders-v2-answered',
      question: ORDERS_V2,
      format: YES_NO,
      tags: ['data'],
      user: BOB,
      status: 'resolved',
      createdAgo: d(5),
      resolvedAgo: d(5) - h(2),
      result: { answer: 'No. Finance reads it at the quarter close; ask again after October 15.' },
    },

    // Superseded by recording-retention-new.
    {
      key: 'recording-retention-old',
      question: RECORDING_RETENTION,
      format: FREE_TEXT,
      tags: ['legal', 'data'],
      user: BOB,
      status: 'superseded',
      createdAgo: d(8),
      resolvedAgo: d(8) - h(1),
      result: { answer: '90 days' },
      supersededBy: 'recording-retention-new',
    },

    // Expired.
    {
      key: 'hotfix-review',
      question: 'Can I merge hotfix PR #4821 (payment retries) without a second review?',
      format: YES_NO,
      tags: ['infra'],
      user: BOB,
      status: 'expired',
      createdAgo: d(2) + h(3),
    },
    {
      key: 'wayne-trial',
      question: 'Should the Wayne Enterprises trial be extended by 14 days?',
      format: YES_NO,
      tags: ['billing'],
      user: ALICE,
      status: 'expired',
      createdAgo: d(3) + h(5),
    },
    {
      key: 'partner-leads',
      question: 'Which data classification applies to the "partner_leads" spreadsheet?',
      format: 'one of: public, internal, confidential, restricted',
      tags: ['data', 'security'],
      user: null,
      status: 'expired',
      createdAgo: d(4) + h(1),
    },
    {
      key: 'access-review',
      tool: 'request_access_review',
      question: 'Grant u_7f3a read access to the finance dashboard for the quarterly close?',
      format: null,
      args: {
        subject: U7F3A,
        resource: 'dashboards/finance-q3',
        access: 'read',
        duration_days: 14,
        justification: 'Quarter-close reconciliation',
      },
      tags: ['security'],
      user: U7F3A,
      status: 'expired',
      createdAgo: d(2) + h(8),
    },
    {
      key: 'stark-checklist',
      question: 'Which onboarding checklist template should I use for Stark Industries?',
      format: FREE_TEXT,
      tags: ['onboarding'],
      user: BOB,
      status: 'expired',
      createdAgo: d(6) + h(2),
      expiresAfter: h(1),
    },

    // Cancelled.
    {
      key: 'invoice-batch',
      question: 'Should I re-run the failed invoice batch for February?',
      format: YES_NO,
      tags: ['billing'],
      user: ALICE,
      status: 'cancelled',
      createdAgo: d(1) + h(14),
    },
    {
      key: 'report-timezone',
      question: 'Which timezone should the weekly usage report use?',
      format: 'one of: UTC, America/New_York, Europe/Berlin',
      tags: ['data'],
      user: BOB,
      status: 'cancelled',
      createdAgo: h(26),
    },
    {
      key: 'dpa-entity',
      question:
        'What is the exact legal entity name for the Umbrella Corp data processing agreement?',
      format: FREE_TEXT,
      tags: ['legal'],
      user: null,
      status: 'cancelled',
      createdAgo: d(2) + h(20),
    },
    {
      key: 'sandbox-reset',
      question: 'Should I reset the sandbox environment for Vandelay Industries?',
      format: YES_NO,
      tags: ['onboarding'],
      user: U7F3A,
      status: 'cancelled',
      createdAgo: h(15),
    },

    // Another organization: never listed, 404 everywhere.
    {
      key: 'other-org-pending',
      org: OTHER_ORG,
      question: 'Should the Contoso payroll export include bonus payments?',
      format: YES_NO,
      tags: ['billing'],
      user: 'carol@other.example',
      status: 'pending',
      createdAgo: m(30),
    },
    {
      key: 'other-org-resolved',
      org: OTHER_ORG,
      question: 'Which region hosts the Contoso tenant?',
      format: FREE_TEXT,
      tags: ['infra'],
      user: null,
      status: 'resolved',
      createdAgo: d(2),
      resolvedAgo: d(2) - h(1),
      result: { answer: 'westeurope' },
    },
  ];
}

function entryToRow(entry: SeedEntry, now: number): CallRow {
  const createdAt = now - entry.createdAgo;
  const row = buildRow(
    {
      question: entry.question,
      answerFormat: entry.format,
      tags: entry.tags,
      userId: entry.user,
      toolName: entry.tool ?? ASK_HUMAN,
      orgId: entry.org ?? DEFAULT_ORG,
      ...(entry.args ? { args: entry.args } : {}),
      expiresInSeconds: (entry.expiresAfter ?? DAY) / 1000,
    },
    createdAt,
    seedId(entry.key),
  );
  row.status = entry.status;
  if (entry.resolvedAgo !== undefined) {
    row.resolved_at = now - entry.resolvedAgo;
    row.valid_until = row.resolved_at + (entry.validFor ?? DEFAULT_VALID_FOR_SECONDS * 1000);
    row.result = entry.result ?? null;
  }
  if (entry.supersededBy) row.superseded_by = seedId(entry.supersededBy);
  return row;
}

/** Same ids and texts on every call; timestamps are relative to `now`. */
export function buildSeedRows(seed: SeedName, now: number): CallRow[] {
  if (seed === 'empty') return [];
  return demoEntries().map((entry) => entryToRow(entry, now));
}

/** Ids worth knowing in tests and demos. */
export const demoIds = {
  hostileMarkup: seedId('hostile-markup'),
  superseded: seedId('recording-retention-old'),
  superseder: seedId('recording-retention-new'),
  nonAskHumanPending: seedId('approve-deployment'),
  nonAskHumanResolved: seedId('confirm-refund'),
  pendingYesNo: seedId('credit-note'),
  pendingSoonest: seedId('deploy-target'),
  pendingInsideCacheWindow: seedId('kickoff-call'),
  lookAlikeFirst: seedId('orders-v2-first'),
  lookAlikeSecond: seedId('orders-v2-second'),
  lookAlikeThird: seedId('orders-v2-third'),
  lookAlikeAnswered: seedId('orders-v2-answered'),
  notApplicable: seedId('hooli-not-applicable'),
  resolved: seedId('db-failover'),
  expired: seedId('hotfix-review'),
  cancelled: seedId('invoice-batch'),
  zeroWidth: seedId('zero-width'),
  longToken: seedId('long-token'),
  longText: seedId('gdpr-erasure'),
  otherOrgPending: seedId('other-org-pending'),
  otherOrgResolved: seedId('other-org-resolved'),
} as const;
