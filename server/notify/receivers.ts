// Where a notice goes: a signed webhook (Standard Webhooks: id, timestamp, HMAC-SHA256 signature),
// a mailbox (SMTP through nodemailer), a Slack incoming webhook (Block Kit with the link). Each
// sender throws on a failure, naming it without the receiver's URL or secret; `permanent` says a
// retry cannot help (the receiver refused the message as such).
import { IncomingWebhook, type IncomingWebhookSendArguments } from '@slack/webhook';
import { createTransport } from 'nodemailer';
import { Webhook } from 'standardwebhooks';
import type { Receiver } from './config';
import { leftWords, type Notice, noticeText } from './message';

export type Sender = (notice: Notice) => Promise<void>;

export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;

/** The webhook's JSON body: the notice itself (no answer, no key, no other reviewer's words). */
export function webhookBody(notice: Notice): string {
  return JSON.stringify({
    type: notice.type,
    timestamp: new Date().toISOString(),
    data: {
      title: notice.title,
      url: notice.url,
      count: notice.count,
      route: notice.route,
      // As documented in docs/notifications.md; the quick answers are Web Push's actions only.
      questions: notice.questions.map(({ choices: _choices, ...question }) => question),
    },
  });
}

function statusError(what: string, status: number): DeliveryError {
  // 4xx other than 408/429: the receiver refuses this message; a retry sends the same refused one.
  const permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
  return new DeliveryError(`${what} answered ${status}`, permanent);
}

export function webhookSender(receiver: { url: string; secret: string }): Sender {
  const signer = new Webhook(receiver.secret);
  return async (notice) => {
    const body = webhookBody(notice);
    const timestamp = new Date();
    const response = await fetch(receiver.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': notice.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signer.sign(notice.id, timestamp, body),
      },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }).catch((error: unknown) => {
      throw new DeliveryError(`the webhook could not be reached (${errorName(error)})`);
    });
    await response.body?.cancel();
    if (!response.ok) throw statusError('the webhook', response.status);
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function noticeHtml(notice: Notice): string {
  const items = notice.questions
    .map((q) => {
      const what = `<strong>${escapeHtml(q.agent)}</strong> on ${escapeHtml(q.system)} (${escapeHtml(leftWords(q.minutesLeft))}): ${escapeHtml(q.asked)}`;
      return `<li>${what}${q.url ? ` <a href="${escapeHtml(q.url)}">Open</a>` : ''}</li>`;
    })
    .join('');
  const more =
    notice.count > notice.questions.length
      ? `<p>…and ${notice.count - notice.questions.length} more.</p>`
      : '';
  const open = notice.url ? `<p><a href="${escapeHtml(notice.url)}">Open the inbox</a></p>` : '';
  return `<!doctype html><html><body><p>${escapeHtml(notice.title)}</p><ul>${items}</ul>${more}${open}<p style="color:#555">Answer in the portal: this message carries no answer form.</p></body></html>`;
}

export function emailSender(smtpUrl: string, to: string[], from?: string): Sender {
  const transport = createTransport(smtpUrl);
  const sender =
    from ?? `Questions Inbox <questions-inbox@${new URL(smtpUrl).hostname || 'localhost'}>`;
  return async (notice) => {
    try {
      await transport.sendMail({
        from: sender,
        to,
        subject: notice.title,
        text: noticeText(notice),
        html: noticeHtml(notice),
        messageId: `<${notice.id}.${Date.now()}@questions-inbox>`,
        headers: { 'X-Questions-Inbox-Id': notice.id },
      });
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      throw new DeliveryError(
        `the mail server refused or could not be reached (${code ?? errorName(error)})`,
        code !== undefined && code >= 500 && code < 600,
      );
    }
  };
}

export function slackSender(url: string): Sender {
  const hook = new IncomingWebhook(url, { timeout: TIMEOUT_MS });
  return async (notice) => {
    const lines = notice.questions.map(
      (q) => `• *${q.agent}* on ${q.system} (${leftWords(q.minutesLeft)}): ${q.asked}`,
    );
    if (notice.count > notice.questions.length) {
      lines.push(`…and ${notice.count - notice.questions.length} more.`);
    }
    const blocks: NonNullable<IncomingWebhookSendArguments['blocks']> = [
      { type: 'section', text: { type: 'mrkdwn', text: `*${notice.title}*` } },
      { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n').slice(0, 2900) } },
    ];
    if (notice.url) {
      blocks.push({
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Open in the inbox' },
            url: notice.url,
          },
        ],
      });
    }
    try {
      await hook.send({ text: notice.title, blocks });
    } catch (error) {
      const status = (error as { original?: { response?: { status?: number } } }).original?.response
        ?.status;
      if (status) throw statusError('Slack', status);
      throw new DeliveryError(`Slack could not be reached (${errorName(error)})`);
    }
  };
}

function errorName(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  const code = (error as { code?: string }).code;
  return cause ?? code ?? (error instanceof Error ? error.name : 'error');
}

/** A sender for each receiver of the configuration (Web Push is handled by its own module). */
export function sendersFor(
  receivers: readonly Receiver[],
  smtpUrl: string | null,
  extra: Partial<Record<string, Sender>> = {},
): Map<string, Sender> {
  const out = new Map<string, Sender>();
  for (const receiver of receivers) {
    const given = extra[receiver.name];
    if (given) out.set(receiver.name, given);
    else if (receiver.kind === 'webhook') out.set(receiver.name, webhookSender(receiver));
    else if (receiver.kind === 'slack') out.set(receiver.name, slackSender(receiver.url));
    else if (receiver.kind === 'email' && smtpUrl) {
      out.set(receiver.name, emailSender(smtpUrl, receiver.to));
    }
  }
  return out;
}
