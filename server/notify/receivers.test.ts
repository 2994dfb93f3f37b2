// Each receiver against a real counterpart on loopback: an SMTP server (smtp-server) whose mail is
// parsed by mailparser, an HTTP receiver that checks the Standard Webhooks signature with the
// library's own verifier, and a stand-in for Slack's incoming webhook.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { Notice } from './message';
import { emailSender, slackSender, webhookBody, webhookSender } from './receivers';
import { startWebhookReceiver, TEST_SECRET } from './test-receivers';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const notice: Notice = {
  id: 'msg_42',
  type: 'questions.new',
  title: '2 new questions from billing-agent',
  url: 'https://inbox.example.com/questions',
  count: 2,
  route: 'billing',
  receiver: 'team',
  questions: [
    {
      sourceId: 'reflexio',
      system: 'Reflexio',
      id: 'ptc_1',
      agent: 'billing-agent',
      tool: 'refund',
      tags: ['billing'],
      asked: 'Refund order 1042 <b>now</b>?',
      expiresAt: null,
      minutesLeft: 12,
      url: 'https://inbox.example.com/questions/ptc_1',
      choices: [],
    },
    {
      sourceId: 'reflexio',
      system: 'Reflexio',
      id: 'ptc_2',
      agent: 'billing-agent',
      tool: null,
      tags: [],
      asked: 'Which account?',
      expiresAt: null,
      minutesLeft: null,
      url: 'https://inbox.example.com/questions/ptc_2',
      choices: [],
    },
  ],
};

describe('the webhook receiver', () => {
  it('signs so that the Standard Webhooks verifier accepts it, and refuses it tampered', async () => {
    const hook = await startWebhookReceiver(TEST_SECRET);
    closers.push(hook.close);
    await webhookSender({ url: hook.url, secret: TEST_SECRET })(notice);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]?.id).toBe('msg_42');
    expect(hook.received[0]?.body.data.questions.map((q) => q.id)).toEqual(['ptc_1', 'ptc_2']);

    // The same signature over a changed body, or under another key, does not verify.
    const body = webhookBody(notice);
    const now = new Date();
    const signature = new Webhook(TEST_SECRET).sign('msg_43', now, body);
    const headers = {
      'webhook-id': 'msg_43',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    };
    expect(() => new Webhook(TEST_SECRET).verify(body, headers)).not.toThrow();
    expect(() =>
      new Webhook(TEST_SECRET).verify(body.replace('Which account?', 'Pay me'), headers),
    ).toThrow();
    const tampered = await fetch(hook.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: body.replace('Which account?', 'Pay me'),
    });
    expect(tampered.status).toBe(401);
    expect(hook.refused).toBe(1);
    expect(hook.received).toHaveLength(1);
  });
});

describe('the email receiver', () => {
  it('sends a short text and HTML mail with links through PUBLIC_URL and no answer form', async () => {
    const mails: ParsedMail[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            mails.push(mail);
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
    const { port } = smtp.server.address() as AddressInfo;
    await emailSender(`smtp://127.0.0.1:${port}`, ['ops@example.com'])(notice);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.subject).toBe('2 new questions from billing-agent');
    expect(mail?.headers.get('x-questions-inbox-id')).toBe('msg_42');
    expect(mail?.text).toContain(
      'billing-agent on Reflexio (12 min left): Refund order 1042 <b>now</b>?',
    );
    expect(mail?.text).toContain('https://inbox.example.com/questions/ptc_1');
    const html = String(mail?.html);
    expect(html).toContain('<a href="https://inbox.example.com/questions/ptc_2">Open</a>');
    expect(html).toContain('Refund order 1042 &lt;b&gt;now&lt;/b&gt;?');
    expect(html).not.toMatch(/<form|<input|<textarea|<button/i);
  });

  it('says a mail server that cannot be reached, to be tried again', async () => {
    const send = emailSender('smtp://127.0.0.1:1', ['ops@example.com']);
    await expect(send(notice)).rejects.toMatchObject({ permanent: false });
  });
});

describe('the Slack receiver', () => {
  it('posts a Block Kit message with the link', async () => {
    const posts: { blocks: { type: string; elements?: { url?: string }[] }[]; text: string }[] = [];
    const slack = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        posts.push(JSON.parse(body));
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => slack.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => slack.close(() => resolve())));
    const { port } = slack.address() as AddressInfo;
    await slackSender(`http://127.0.0.1:${port}/services/T/B/X`)(notice);
    expect(posts).toHaveLength(1);
    expect(posts[0]?.text).toBe('2 new questions from billing-agent');
    const actions = posts[0]?.blocks.find((block) => block.type === 'actions');
    expect(actions?.elements?.[0]?.url).toBe('https://inbox.example.com/questions');
    expect(JSON.stringify(posts[0])).toContain('Refund order 1042');
  });
});
