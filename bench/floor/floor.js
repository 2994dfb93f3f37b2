// The floor: the same 500 pending questions as the portal, fetched from the same API and shown
// as a plain table with no framework, with what a portal row shows (a link to the question, when
// it was asked with the exact time on hover, the countdown). Deliberately naive: every second it
// sets the text of every countdown cell, so the whole table is laid out again on each tick.
const LIST_URL = '../api/pending_tool_calls?status=pending&limit=500';

function countdownText(expiresAt, now) {
  if (expiresAt === null) return '–';
  const left = Math.floor((expiresAt - now) / 1000);
  if (left <= 0) return 'expired';
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = left % 60;
  const pad = (value) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

// The same time text as a portal row: "asked 5 minutes ago", the exact local time on hover.
// One formatter each, made once, as a careful hand-written page would.
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

function createdCell(row, iso, now) {
  const td = document.createElement('td');
  if (iso === null) {
    td.textContent = '–';
  } else {
    const at = Date.parse(iso);
    const time = document.createElement('time');
    time.dateTime = iso;
    time.title = exact.format(at);
    time.textContent = `asked ${relativeText(at, now)}`;
    td.append(time);
  }
  row.append(td);
}

function questionCell(row, question) {
  const td = document.createElement('td');
  const link = document.createElement('a');
  link.href = `../questions/${encodeURIComponent(question.id)}`;
  link.textContent = question.question_text;
  td.append(link);
  row.append(td);
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
  const response = await fetch(LIST_URL, { headers: { accept: 'application/json' } });
  if (!response.ok) {
    status.textContent = `The server answered HTTP ${response.status}`;
    return;
  }
  const body = await response.json();
  performance.mark('qi:list-data');
  performance.mark('qi:list-render-start');

  const questions = body.pending_tool_calls;
  const countdowns = [];
  const now = Date.now();
  const tbody = document.createElement('tbody');
  for (const question of questions) {
    const row = document.createElement('tr');
    row.dataset.questionId = question.id;
    cell(row, question.status);
    questionCell(row, question);
    cell(row, question.user_id ?? '–');
    cell(row, question.tags.join(', '));
    createdCell(row, question.created_at, now);
    const expiresAt = question.expires_at === null ? null : Date.parse(question.expires_at);
    countdowns.push({ td: cell(row, countdownText(expiresAt, now), 'countdown'), expiresAt });
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
