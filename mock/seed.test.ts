import { describe, expect, it } from 'vitest';
import { buildSeedRows, demoIds, OTHER_ORG } from './seed';
import { CALL_STATUSES, type CallRow, dedupKey, toRecord } from './store';
import { DAY, HOUR, harness, MINUTE, START } from './test-support';

function demo(now = START): CallRow[] {
  return buildSeedRows('demo', now);
}

function byId(rows: CallRow[], id: string): CallRow {
  const row = rows.find((candidate) => candidate.id === id);
  if (!row) throw new Error(`missing ${id}`);
  return row;
}

const ownRows = (rows: CallRow[]) => rows.filter((row) => row.org_id === 'org_demo');

describe('demo seed', () => {
  it('is deterministic: same ids and texts on every build, timestamps relative to now', () => {
    const a = demo(START);
    const b = demo(START + 3 * DAY + 17);
    expect(b.map((r) => r.id)).toEqual(a.map((r) => r.id));
    expect(b.map((r) => r.question_text)).toEqual(a.map((r) => r.question_text));
    const shift = 3 * DAY + 17;
    expect(b.map((r) => r.created_at)).toEqual(a.map((r) => r.created_at + shift));
    expect(b.map((r) => r.expires_at)).toEqual(a.map((r) => (r.expires_at ?? 0) + shift));
    expect(demo(START).map(toRecord)).toEqual(a.map(toRecord));
  });

  it('two resets through the control surface give the same ids and texts', async () => {
    const h = harness();
    const snapshot = async () => {
      const state = await h.control<{ calls: { id: string; question_text: string }[] }>(
        'GET',
        '/__mock/state',
      );
      return state.body.calls.map((c) => [c.id, c.question_text]);
    };
    await h.control('POST', '/__mock/reset', {});
    const first = await snapshot();
    h.clock.advance(HOUR);
    await h.control('POST', '/__mock/reset', {});
    expect(await snapshot()).toEqual(first);
  });

  it('has at least 40 org_demo calls covering all five statuses, plus two of another org', () => {
    const rows = demo();
    expect(ownRows(rows).length).toBeGreaterThanOrEqual(40);
    for (const status of CALL_STATUSES) {
      expect(ownRows(rows).some((row) => row.status === status)).toBe(true);
    }
    expect(ownRows(rows).filter((row) => row.status === 'pending').length).toBeGreaterThanOrEqual(
      5,
    );
    expect(rows.filter((row) => row.org_id === OTHER_ORG)).toHaveLength(2);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    for (const row of rows) expect(row.id).toMatch(/^ptc_[0-9a-f]{32}$/);
  });

  it('varies tags, users and answer formats', () => {
    const rows = ownRows(demo());
    const tags = new Set(rows.flatMap((row) => row.tags));
    for (const tag of ['infra', 'billing', 'legal', 'data', 'security', 'onboarding']) {
      expect(tags.has(tag)).toBe(true);
    }
    const users = new Set(rows.map((row) => row.user_id));
    for (const user of ['alice@example.com', 'bob@example.com', 'u_7f3a', null]) {
      expect(users.has(user)).toBe(true);
    }
    const formats = new Set(rows.map((row) => row.answer_format));
    for (const format of [
      'yes/no',
      'number',
      'free text',
      'JSON object with keys region and tier',
      null,
    ]) {
      expect(formats.has(format)).toBe(true);
    }
    expect([...formats].some((format) => format?.startsWith('one of: '))).toBe(true);
  });

  it('has 3-4 non-ask_human calls with richer args, one of them pending', () => {
    const others = ownRows(demo()).filter((row) => row.tool_name !== 'ask_human');
    expect(others.length).toBeGreaterThanOrEqual(3);
    expect(others.length).toBeLessThanOrEqual(4);
    for (const row of others) {
      expect(Object.keys(row.args)).not.toEqual(['question', 'answer_format']);
      expect(Object.keys(row.args).length).toBeGreaterThanOrEqual(3);
    }
    expect(byId(demo(), demoIds.nonAskHumanPending)).toMatchObject({
      status: 'pending',
      tool_name: 'approve_deployment',
    });
    const askHuman = ownRows(demo()).find((row) => row.tool_name === 'ask_human');
    expect(askHuman?.args).toEqual({
      question: askHuman?.question_text,
      answer_format: askHuman?.answer_format,
    });
  });

  it('has pending calls expiring in about 2, 4, 9 and 50 minutes and in hours', () => {
    const pending = ownRows(demo()).filter((row) => row.status === 'pending');
    const minutesLeft = pending.map((row) => ((row.expires_at ?? 0) - START) / MINUTE);
    for (const expected of [2, 4, 9, 50]) expect(minutesLeft).toContain(expected);
    expect(minutesLeft.filter((left) => left >= 120).length).toBeGreaterThanOrEqual(5);
    expect(minutesLeft.every((left) => left > 0)).toBe(true);
    expect(byId(demo(), demoIds.pendingYesNo)).toMatchObject({
      status: 'pending',
      tool_name: 'ask_human',
      answer_format: 'yes/no',
    });
  });

  it('has a superseded/superseding pair with the same dedup key', () => {
    const rows = demo();
    const old = byId(rows, demoIds.superseded);
    const newer = byId(rows, demoIds.superseder);
    expect(old.status).toBe('superseded');
    expect(old.superseded_by).toBe(newer.id);
    expect(newer.status).toBe('resolved');
    expect(newer.dedup_key).toBe(old.dedup_key);
    expect(newer.scope_hash).toBe(old.scope_hash);
    expect((newer.resolved_at ?? 0) > (old.resolved_at ?? 0)).toBe(true);
  });

  it('has two look-alike pending questions created 2 h apart, outside each other’s dedup window', () => {
    const rows = demo();
    const first = byId(rows, demoIds.lookAlikeFirst);
    const second = byId(rows, demoIds.lookAlikeSecond);
    expect(first.question_text).toBe(second.question_text);
    expect(first.dedup_key).toBe(second.dedup_key);
    expect(second.created_at - first.created_at).toBe(2 * HOUR);
    expect(second.created_at).toBeGreaterThan(first.cache_until ?? Number.POSITIVE_INFINITY);
  });

  it('has a third look-alike and an earlier answer to the same question', () => {
    const rows = demo();
    const first = byId(rows, demoIds.lookAlikeFirst);
    const third = byId(rows, demoIds.lookAlikeThird);
    const answered = byId(rows, demoIds.lookAlikeAnswered);
    for (const row of [third, answered]) {
      expect([row.scope_hash, row.tool_name, row.dedup_key]).toEqual([
        first.scope_hash,
        first.tool_name,
        first.dedup_key,
      ]);
    }
    expect(third.status).toBe('pending');
    expect(answered.status).toBe('resolved');
    expect(answered.result).toMatchObject({ answer: expect.stringMatching(/^No\./) });
  });

  it('has hostile, long and non-Latin texts', () => {
    const rows = ownRows(demo());
    const hostile = byId(rows, demoIds.hostileMarkup).question_text;
    expect(hostile).toContain('<script>alert("xss")</script>');
    expect(hostile).toContain('<img src=x onerror=alert(1)>');
    expect(hostile).toContain('javascript:alert(1)');
    const texts = rows.map((row) => row.question_text);
    expect(texts.some((text) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(text))).toBe(true);
    expect(texts.some((text) => /[\u0600-\u06ff]/.test(text))).toBe(true);
    expect(texts.some((text) => /[\u0400-\u04ff]/.test(text))).toBe(true);
    expect(texts.some((text) => /\p{Extended_Pictographic}/u.test(text))).toBe(true);
    expect(byId(rows, demoIds.zeroWidth).question_text).toMatch(/\u200b|\u200c|\u200d|\u2060/);
    expect(byId(rows, demoIds.longToken).question_text).toMatch(/\S{3000}/);
    expect(byId(rows, demoIds.longText).question_text.split('\n\n').length).toBeGreaterThanOrEqual(
      3,
    );
  });

  it('has realistic resolved answers, the not-applicable result, cancelled and expired calls', () => {
    const rows = demo();
    expect(byId(rows, demoIds.notApplicable).result).toStrictEqual({
      answer: 'User does not have information about this question.',
      not_applicable: true,
    });
    for (const row of ownRows(rows).filter((r) => r.status === 'resolved')) {
      expect(row.result).not.toBeNull();
      expect(row.resolved_at).not.toBeNull();
      expect(row.valid_until).not.toBeNull();
    }
    for (const row of ownRows(rows).filter((r) => r.status === 'expired')) {
      expect(row.expires_at ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(START);
    }
    expect(ownRows(rows).filter((r) => r.status === 'cancelled').length).toBeGreaterThanOrEqual(2);
  });

  it('stores dedup keys computed from tool, text and format', () => {
    for (const row of demo()) {
      expect(row.dedup_key).toBe(dedupKey(row.tool_name, row.question_text, row.answer_format));
    }
  });

  it('the empty seed is empty', () => {
    expect(buildSeedRows('empty', START)).toEqual([]);
  });
});
