// The floor of the scale scenario: the same pending questions as the portal's list, read from the
// same three APIs the same way (Reflexio's list; Vertesia's whole project; Bilby's conversation
// pages, then each conversation with questions, four at a time), shown as one plain table with no
// framework. Like floor.js, deliberately naive: every row is in the DOM, and every second it sets
// the text of every countdown cell.
const BILBY_ORG = new URLSearchParams(location.search).get('org') ?? '';

function countdownText(expiresAt, now) {
  if (expiresAt === null) return 'no deadline';
  const left = Math.floor((expiresAt - now) / 1000);
  if (left <= 0) return 'expired';
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = left % 60;
  const pad = (value) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const exact = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long' });

function relativeText(at, now) {
  const minutes = Math.round((at - now) / 60000);
  if (Math.abs(minutes) < 1) return 'just now';
  if (Math.abs(minutes) < 60) return relative.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  return Math.abs(hours) < 24
    ? relative.format(hours, 'hour')
    : relative.format(Math.round(hours / 24), 'day');
}

async function json(url, headers = {}) {
  const response = await fetch(url, { headers: { accept: 'application/json', ...headers } });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

async function reflexio() {
  const body = await json('../api/pending_tool_calls?status=pending&limit=500');
  return body.pending_tool_calls.map((call) => ({
    id: call.id,
    source: 'Reflexio',
    text: call.question_text,
    user: call.user_id,
    tags: call.tags,
    createdAt: call.created_at === null ? null : Date.parse(call.created_at),
    expiresAt: call.expires_at === null ? null : Date.parse(call.expires_at),
  }));
}

async function vertesia() {
  const body = await json('../vertesia/api/v1/pending-asks', { 'x-api-version': '20260803' });
  return body.asks
    .filter((ask) => ask.status === 'pending')
    .map((ask) => ({
      id: `vertesia:${ask.askId}`,
      source: 'Vertesia',
      text: ask.questions.join('\n'),
      user: null,
      tags: [ask.agentName],
      createdAt: ask.createdAt,
      expiresAt: ask.expiresAt,
    }));
}

async function bilby() {
  const org = BILBY_ORG ? `organizationId=${encodeURIComponent(BILBY_ORG)}&` : '';
  const ids = [];
  let cursor = null;
  do {
    const page = await json(
      `../bilby/api/v1/conversations?${org}${cursor ? `cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    for (const c of page.conversations) if (c.pendingQuestionCount > 0) ids.push(c.id);
    cursor = page.nextCursor;
  } while (cursor);
  const details = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      details.push(await json(`../bilby/api/v1/conversations/${id}?${org}`));
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return details.flatMap((conversation) =>
    conversation.pendingQuestions.map((call) => ({
      id: `bilby:${conversation.id}:${call.toolCallId}`,
      source: 'Bilby',
      text: call.questions.map((q) => q.question).join('\n'),
      user: null,
      tags: [conversation.title],
      createdAt: Date.parse(call.createdAt),
      expiresAt: null,
    })),
  );
}

function cell(row, text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  row.append(td);
  return td;
}

async function main() {
  const status = document.getElementById('status');
  let lists;
  try {
    lists = await Promise.all([reflexio(), vertesia(), bilby()]);
  } catch (error) {
    status.textContent = String(error);
    return;
  }
  performance.mark('qi:list-data');
  performance.mark('qi:list-render-start');
  // Soonest to expire first, as the portal's default sort; no deadline last.
  const questions = lists
    .flat()
    .sort((a, b) => (a.expiresAt ?? Infinity) - (b.expiresAt ?? Infinity));
  const countdowns = [];
  const now = Date.now();
  const tbody = document.createElement('tbody');
  for (const question of questions) {
    const row = document.createElement('tr');
    row.dataset.questionId = question.id;
    cell(row, `pending · ${question.source}`);
    const td = document.createElement('td');
    const link = document.createElement('a');
    link.href = `../questions/${encodeURIComponent(question.id)}`;
    link.textContent = question.text;
    td.append(link);
    row.append(td);
    cell(row, question.user ?? '–');
    cell(row, question.tags.join(', '));
    const asked = document.createElement('td');
    if (question.createdAt !== null) {
      const time = document.createElement('time');
      time.title = exact.format(question.createdAt);
      time.textContent = `asked ${relativeText(question.createdAt, now)}`;
      asked.append(time);
    }
    row.append(asked);
    countdowns.push({
      td: cell(row, countdownText(question.expiresAt, now), 'countdown'),
      expiresAt: question.expiresAt,
    });
    tbody.append(row);
  }
  document.querySelector('table').append(tbody);
  status.textContent = `${questions.length} pending`;
  performance.mark('qi:list-rendered');

  setInterval(() => {
    const tick = Date.now();
    for (const { td, expiresAt } of countdowns) td.textContent = countdownText(expiresAt, tick);
  }, 1000);
}

main();
