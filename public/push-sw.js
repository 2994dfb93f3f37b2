// The portal's service worker for Web Push (docs/notifications.md): registered only when a reviewer
// turns on "Also when the inbox is closed" for this device. It shows what the portal server sends
// (server/notify/web-push.ts pushPayload) and, on a click, opens the question in the inbox tab
// already open (which the page routes to, keeping its state) or in a new one. It handles no
// requests: the page works the same with it or without it.
//
// A question with quick answers comes with them as actions. A click on one sends that answer
// through the portal like any other: the open inbox tab sends it with its own code (the drawer's),
// else this worker sends the page's request itself, to the same portal route with the same cookies
// (so the same reviewer, trail entry and refusal of a question answered meanwhile); where only a
// page holds the keys (auth.mode "token") the question opens with the answer chosen instead.

const OPEN_MESSAGE = 'questions-inbox:open';
const ANSWER_MESSAGE = 'questions-inbox:answer';
const ANSWER_ACTION = 'answer:';
const TITLE_MAX = 200;
const BODY_MAX = 400;
const CHOICES_MAX = 3;
const CHOICE_MAX = 40;

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** A path under this worker's scope (the portal's address); anything else is the inbox. */
function within(path) {
  const scope = self.registration.scope;
  if (typeof path !== 'string') return new URL('questions', scope).href;
  const target = new URL(path, scope);
  return target.href.startsWith(scope) ? target.href : new URL('questions', scope).href;
}

const text = (value, max) => (typeof value === 'string' ? value.slice(0, max) : '');

/** The question a notice's answers are for, as the server names it; null if none or odd. */
function questionOf(value) {
  if (typeof value !== 'object' || value === null) return null;
  const { source, id } = value;
  const fits = (part, max) => typeof part === 'string' && part.length > 0 && part.length <= max;
  return fits(source, 100) && fits(id, 512) ? { source, id } : null;
}

/** The quick answers offered, in order: each action `answer:<i>` titled with the answer. */
function choicesOf(actions) {
  if (!Array.isArray(actions)) return [];
  const choices = [];
  for (const item of actions.slice(0, CHOICES_MAX)) {
    if (typeof item !== 'object' || item === null) break;
    if (item.action !== `${ANSWER_ACTION}${choices.length}`) break;
    if (typeof item.title !== 'string' || !item.title || item.title.length > CHOICE_MAX) break;
    choices.push(item.title);
  }
  return choices;
}

/**
 * What the notification offers: every quick answer when all fit the platform's buttons (a click
 * on the notification itself opens the question), else only Open: a part of the choices would
 * steer the answer. `Notification.maxActions` is 0 where actions are not shown at all.
 */
function actionsFor(choices) {
  const room =
    typeof Notification !== 'undefined' && typeof Notification.maxActions === 'number'
      ? Notification.maxActions
      : 2;
  if (choices.length > 0 && choices.length <= room) {
    return choices.map((title, index) => ({ action: `${ANSWER_ACTION}${index}`, title }));
  }
  return [{ action: 'open', title: 'Open' }];
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  if (typeof data !== 'object' || data === null) data = {};
  const title = text(data.title, TITLE_MAX) || 'A question is waiting';
  const href = within(data.path);
  const question = questionOf(data.question);
  const choices = question ? choicesOf(data.actions) : [];
  event.waitUntil(
    self.registration.showNotification(title, {
      body: text(data.body, BODY_MAX),
      // One notification per message: a retried message replaces itself instead of stacking.
      tag: text(data.id, 100) || undefined,
      icon: new URL('favicon.svg', self.registration.scope).href,
      data: { href, question, choices },
      actions: actionsFor(choices),
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data;
  const href = within(data && typeof data.href === 'string' ? data.href : null);
  const action = typeof event.action === 'string' ? event.action : '';
  const question = questionOf(data?.question);
  const choices = Array.isArray(data?.choices) ? data.choices : [];
  const answer = action.startsWith(ANSWER_ACTION)
    ? choices[Number(action.slice(ANSWER_ACTION.length))]
    : undefined;
  if (question && typeof answer === 'string') {
    event.waitUntil(answerFromNotification(href, question, answer, event.notification.tag));
  } else {
    event.waitUntil(openInbox(href));
  }
});

/** How long an open inbox tab has to say it heard before it is sent to the question instead. */
const HEARD_WAIT_MS = 1500;

/** Whether the tab's page routes to `href` itself (it answers on the channel when it does). */
function told(client, href) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(false), HEARD_WAIT_MS);
    channel.port1.onmessage = () => {
      clearTimeout(timer);
      resolve(true);
    };
    client.postMessage({ type: OPEN_MESSAGE, href }, [channel.port2]);
  });
}

/**
 * The inbox tab already open goes to the question: its page routes there (keeping its state), or,
 * if its page does not answer (still loading), the tab is sent there. No tab open: a new one.
 */
async function openInbox(href) {
  const scope = self.registration.scope;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const inbox = windows.find((client) => client.url.startsWith(scope));
  if (!inbox) {
    await self.clients.openWindow(href);
    return;
  }
  if (!(await told(inbox, href))) {
    try {
      await inbox.navigate(href);
    } catch {
      await self.clients.openWindow(href);
      return;
    }
  }
  try {
    await inbox.focus();
  } catch {
    // Only a click may bring a window forward; the tab still went to the question.
  }
}

/** How long the inbox tab may take to send an answer (the portal gives a system 30 s). */
const ANSWER_WAIT_MS = 45_000;

/**
 * The inbox tab's word on an answer it sends: null when it did not take it up (still loading, an
 * older page) within HEARD_WAIT_MS; else what came of it.
 */
function answeredByTab(client, message) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    let timer = setTimeout(() => resolve(null), HEARD_WAIT_MS);
    channel.port1.onmessage = (event) => {
      const reply = event.data;
      clearTimeout(timer);
      if (reply && reply.state === 'done') {
        resolve(reply);
        return;
      }
      timer = setTimeout(
        () => resolve({ kind: 'failed', reason: 'the inbox tab did not say whether it was sent' }),
        ANSWER_WAIT_MS,
      );
    };
    client.postMessage(message, [channel.port2]);
  });
}

/** A JSON body, or null. */
async function json(response) {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/** Where the portal's page reaches `source` (config.json), if this worker may send there too. */
async function apiBaseOf(source) {
  const scope = self.registration.scope;
  const response = await fetch(new URL('config.json', scope), { cache: 'no-store' });
  const config = response.ok ? await json(response) : null;
  if (!config || typeof config !== 'object') return null;
  const listed = Array.isArray(config.sources)
    ? config.sources.find((item) => item && item.id === source)
    : null;
  if (Array.isArray(config.sources) && listed?.kind !== 'reflexio') return null;
  // Keys only a page holds (the reviewer's own, in token mode) never reach this worker.
  const tokenMode = config.auth && config.auth.mode === 'token';
  if (tokenMode && !(listed && listed.auth === 'server')) return null;
  const base = listed ? listed.apiBaseUrl : config.apiBaseUrl;
  if (typeof base !== 'string' || !base) return null;
  const url = new URL(base.endsWith('/') ? base : `${base}/`, scope);
  return url.origin === self.location.origin ? url : null;
}

/** What a refused or failed send says, in plain words. */
async function failure(response) {
  if (response.status === 401 || response.status === 403) return { kind: 'sign-in' };
  if (response.status === 429) {
    return { kind: 'failed', reason: 'the portal asked to wait: too many answers in a minute' };
  }
  const body = await json(response);
  const detail = body && typeof body.detail === 'string' ? body.detail.slice(0, 200) : null;
  return { kind: 'failed', reason: detail || `the portal answered HTTP ${response.status}` };
}

/** The question as its system has it now: pending, closed (with its status), or a failure. */
async function stateOf(callUrl) {
  const response = await fetch(callUrl, { cache: 'no-store', credentials: 'same-origin' });
  if (response.status === 404) return { kind: 'closed', status: 'gone' };
  if (!response.ok) return failure(response);
  const call = await json(response);
  const status = call && typeof call.status === 'string' ? call.status : 'pending';
  if (status === 'pending') return { kind: 'pending' };
  return { kind: 'closed', status };
}

/**
 * No inbox tab sends it: this worker sends what the page would (the drawer's request, to the same
 * portal route, with the reviewer's cookies), after checking it is still waiting; the system
 * itself refuses an answer over a different one given meanwhile (409).
 */
async function answerHere(question, answer) {
  let base;
  try {
    base = await apiBaseOf(question.source);
  } catch {
    return { kind: 'failed', reason: 'the portal could not be reached' };
  }
  if (!base) return { kind: 'open' };
  const callUrl = new URL(`pending_tool_calls/${encodeURIComponent(question.id)}`, base);
  try {
    const before = await stateOf(callUrl);
    if (before.kind !== 'pending') return before;
    const response = await fetch(`${callUrl.href}/resolve`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ result: { answer } }),
    });
    if (response.ok) return { kind: 'answered' };
    if (response.status === 409 || response.status === 404) {
      const after = await stateOf(callUrl);
      return after.kind === 'pending' ? failure(response) : after;
    }
    return failure(response);
  } catch {
    return { kind: 'failed', reason: 'the portal could not be reached' };
  }
}

/** Who answered the question through the portal, from its audit trail; null if it does not say. */
async function answeredBy(question) {
  try {
    const url = new URL('portal-api/activity', self.registration.scope);
    url.searchParams.set('question', question.id);
    url.searchParams.set('limit', '20');
    const response = await fetch(url, { cache: 'no-store', credentials: 'same-origin' });
    const page = response.ok ? await json(response) : null;
    const entries = page && Array.isArray(page.entries) ? page.entries : [];
    const entry = entries.find(
      (item) =>
        item &&
        item.questionId === question.id &&
        typeof item.status === 'number' &&
        item.status >= 200 &&
        item.status < 300 &&
        typeof item.reviewer === 'string',
    );
    if (!entry) return null;
    return text(entry.reviewerName || entry.reviewer, 80) || null;
  } catch {
    return null;
  }
}

const STATUS_WORDS = {
  resolved: 'already answered',
  expired: 'expired',
  cancelled: 'cancelled',
  superseded: 'superseded by a newer question',
  gone: 'no longer there',
};

/** Answers `question` with `answer`, then says what came of it in a notification of its own. */
async function answerFromNotification(href, question, answer, tag) {
  const scope = self.registration.scope;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const inbox = windows.find((client) => client.url.startsWith(scope));
  let outcome = inbox
    ? await answeredByTab(inbox, {
        type: ANSWER_MESSAGE,
        href,
        source: question.source,
        id: question.id,
        answer,
      })
    : null;
  if (!outcome) outcome = await answerHere(question, answer);
  const quoted = `“${answer}”`;
  const open = [{ action: 'open', title: 'Open' }];
  const show = (title, body, actions = open) =>
    self.registration.showNotification(title, {
      body,
      tag: tag || undefined,
      icon: new URL('favicon.svg', scope).href,
      data: { href, question: null, choices: [] },
      actions,
    });
  if (outcome.kind === 'answered') {
    await show(`Answered: ${answer}`, 'Sent through the portal.', []);
    return;
  }
  if (outcome.kind === 'open' || outcome.kind === 'sign-in') {
    // The page sends it: the question opens with this answer chosen, one click from sent.
    const target = new URL(href);
    target.searchParams.set('answer', answer);
    if (outcome.kind === 'sign-in') {
      await show(
        'Not answered yet',
        `Sign in to the portal, then send ${quoted} from the question.`,
      );
    }
    await openInbox(target.href);
    return;
  }
  if (outcome.kind === 'closed') {
    const words = STATUS_WORDS[outcome.status] || `closed (${text(outcome.status, 40)})`;
    if (outcome.status === 'resolved') {
      const by = await answeredBy(question);
      await show(
        by ? `Already answered by ${by}` : 'Already answered',
        `Your answer ${quoted} was not sent.`,
      );
      return;
    }
    await show('This question is closed', `It is ${words}: your answer ${quoted} was not sent.`);
    return;
  }
  await show('Not answered', `${quoted} was not sent: ${text(outcome.reason, 200)}.`);
}
