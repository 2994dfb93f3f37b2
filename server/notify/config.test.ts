import { describe, expect, it } from 'vitest';
import { readSettings } from '../settings/settings';
import { loadNotifyConfig, offerDevices, parseNotifyConfig } from './config';
import { TEST_NOTIFY_SETTINGS } from './test-receivers';

const settings = { ...TEST_NOTIFY_SETTINGS, publicUrl: null };
const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;

describe('the notifications file', () => {
  it('reads receivers and routes, with Alertmanager-style durations', () => {
    const parsed = parseNotifyConfig(
      `
receivers:
  - name: oncall
    webhook: { url: https://pager.example.com/hook, secret: ${SECRET} }
routes:
  - name: billing
    receiver: oncall
    match: { system: reflexio, tag: [billing], minutes_left: 30 }
    group_by: [agent]
    group_wait: 30s
    group_interval: 5m
    repeat_interval: 1h
`,
      settings,
    );
    expect(parsed.ok && parsed.config.routes[0]).toMatchObject({
      name: 'billing',
      receivers: ['oncall'],
      match: { system: ['reflexio'], tag: ['billing'], minutesLeft: 30 },
      groupBy: ['agent'],
      groupWaitMs: 30_000,
      groupIntervalMs: 300_000,
      repeatIntervalMs: 3_600_000,
      escalateMinutesLeft: null,
    });
  });

  it('says each mistake in one line naming where it is', () => {
    const parsed = parseNotifyConfig(
      `
receivers:
  - name: oncall
    webhook: { url: "ftp://x", secret: "plain" }
  - name: mail
    email: { to: [ops@example.com] }
routes:
  - receiver: nobody
    group_wait: soon
  - receiver: mail
    match: { colour: red }
`,
      settings,
    );
    expect(parsed.ok).toBe(false);
    const problems = parsed.ok ? [] : parsed.problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'NOTIFY_CONFIG: receivers[0].webhook.url: an http(s) URL',
        'NOTIFY_CONFIG: receivers[0].webhook.secret: a whsec_… secret (base64 after whsec_)',
        'NOTIFY_CONFIG: routes[0].group_wait: a duration such as 30s, 5m, 4h (or a number of seconds)',
      ]),
    );
    expect(problems.some((line) => line.startsWith('NOTIFY_CONFIG: routes[1].match'))).toBe(true);
    for (const line of problems) expect(line).not.toContain('\n');
    // Cross-checks come once the shape is right.
    const second = parseNotifyConfig(
      'receivers:\n  - name: mail\n    email: { to: ops@example.com }\nroutes:\n  - receiver: nobody\n',
      settings,
    );
    expect(second.ok ? [] : second.problems).toEqual([
      'NOTIFY_CONFIG: receivers[0]: an email receiver needs SMTP_URL',
      'NOTIFY_CONFIG: routes[0].receiver: no receiver is named "nobody"',
    ]);
  });

  it('says an unreadable file or bad YAML in one line', () => {
    const missing = loadNotifyConfig(settings, () => {
      throw Object.assign(new Error('nope'), { code: 'ENOENT' });
    });
    expect(missing.ok ? [] : missing.problems).toEqual([
      'NOTIFY_CONFIG cannot be read (ENOENT): notify.yaml',
    ]);
    const bad = parseNotifyConfig('receivers: [', settings);
    expect(bad.ok ? [] : bad.problems[0]).toMatch(/^NOTIFY_CONFIG is not YAML or JSON: /);
  });
});

describe('the notification settings', () => {
  it('checks the two-variable setups and never prints a secret', () => {
    const checked = readSettings(
      {
        NOTIFY_WEBHOOK_URL: 'https://hooks.example.com/x',
        NOTIFY_WEBHOOK_SECRET: 'not-a-whsec-secret',
        SMTP_URL: 'imap://user:hunter2@mail.example.com',
        NOTIFY_EMAIL_TO: 'ops@example.com, nope',
      },
      null,
    );
    expect(checked.ok).toBe(false);
    const problems = checked.ok ? [] : checked.problems;
    expect(problems).toEqual([
      'NOTIFY_WEBHOOK_SECRET must be a whsec_… secret as the Standard Webhooks spec writes them, e.g. whsec_ and 32 random bytes in base64 (its value is not shown).',
      'SMTP_URL must be an smtp:// or smtps:// URL, not "imap://***@mail.example.com".',
      'NOTIFY_EMAIL_TO must be email addresses separated by commas, not "nope".',
    ]);
    expect(problems.join('\n')).not.toMatch(/hunter2|not-a-whsec/);
    const half = readSettings({ NOTIFY_WEBHOOK_SECRET: SECRET }, null);
    expect(half.ok ? [] : half.problems).toEqual([
      'NOTIFY_WEBHOOK_URL and NOTIFY_WEBHOOK_SECRET go together: set both or neither.',
    ]);
    const good = readSettings(
      { NOTIFY_WEBHOOK_URL: 'https://hooks.example.com/x', NOTIFY_WEBHOOK_SECRET: SECRET },
      null,
    );
    expect(good.ok && good.settings.notify.webhookSecret).toBe(SECRET);
  });
});

describe("reviewers' devices without a file", () => {
  const none = { ...TEST_NOTIFY_SETTINGS, configFile: null };
  it('offers devices every new question and an escalation at 5 minutes left, beside the variables', () => {
    const loaded = loadNotifyConfig({
      ...none,
      webhookUrl: 'https://hooks.example.com/q',
      webhookSecret: `whsec_${Buffer.from('0123456789abcdef0123').toString('base64')}`,
    });
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const offered = offerDevices(loaded.config, none);
    expect(offered.receivers.map((r) => `${r.name} ${r.kind}`)).toEqual([
      'env-webhook webhook',
      'devices webpush',
    ]);
    expect(offered.routes.map((r) => [r.name, r.receivers.join(), r.escalateMinutesLeft])).toEqual([
      ['env-webhook', 'env-webhook', null],
      ['devices', 'devices', null],
      ['devices-escalation', 'devices', 5],
    ]);
  });

  it('leaves a file to say where devices stand', () => {
    const parsed = parseNotifyConfig(
      'receivers:\n  - name: ops\n    slack: { url: https://hooks.slack.com/services/T/B/x }\nroutes:\n  - receiver: ops\n',
      TEST_NOTIFY_SETTINGS,
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    expect(offerDevices(parsed.config, TEST_NOTIFY_SETTINGS)).toBe(parsed.config);
  });
});
