// The floor: the same 500 pending questions as the portal, fetched from the same API and shown
// as a plain table with no framework. Deliberately naive: every second it sets the text of every
// countdown cell, so the whole table is laid out again on each tick.
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

function createdText(iso) {
  return iso === null ? '–' : iso.slice(0, 19).replace('T', ' ');
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

  const questions = body.pending_tool_calls;
  const countdowns = [];
  const now = Date.now();
  const tbody = document.createElement('tbody');
  for (const question of questions) {
    const row = document.createElement('tr');
    row.dataset.questionId = question.id;
    cell(row, question.status);
    cell(row, question.question_text);
    cell(row, question.user_id ?? '–');
    cell(row, question.tags.join(', '));
    cell(row, createdText(question.created_at));
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
