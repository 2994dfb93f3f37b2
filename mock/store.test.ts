import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createManualClock } from './clock';
import { createCallStore, dedupKey, deepEqual, newCallId, orgScope, scopeHash } from './store';
import { DAY, START } from './test-support';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('hashes', () => {
  it('scope_hash is sha256 of the canonical (sorted, compact) scope JSON', () => {
    expect(scopeHash(orgScope('org_demo'))).toBe(
      sha256('{"org_id":"org_demo","scope_kind":"org"}'),
    );
    expect(scopeHash({ scope_kind: 'org', org_id: 'org_demo' })).toBe(
      scopeHash(orgScope('org_demo')),
    );
    expect(scopeHash({ b: [{ d: 1, c: 'é' }], a: null })).toBe(
      sha256('{"a":null,"b":[{"c":"é","d":1}]}'),
    );
  });

  it('dedup_key hashes normalized tool, question and format (NFKC, trimmed, collapsed, lowercased)', () => {
    expect(dedupKey('ask_human', 'Deploy where?', 'one of: a, b')).toBe(
      sha256('ask_human\ndeploy where?\none of: a, b'),
    );
    expect(dedupKey(' Ask_Human ', '  DEPLOY\n\t where? ', 'One of: a, b')).toBe(
      dedupKey('ask_human', 'Deploy where?', 'one of: a, b'),
    );
    expect(dedupKey('ask_human', 'Ｄｅｐｌｏｙ where?', null)).toBe(
      sha256('ask_human\ndeploy where?\n'),
    );
    expect(dedupKey('ask_human', 'q', null)).not.toBe(dedupKey('ask_human', 'q', 'yes/no'));
  });

  it('ids are ptc_ + 32 lowercase hex', () => {
    expect(newCallId()).toMatch(/^ptc_[0-9a-f]{32}$/);
    expect(newCallId()).not.toBe(newCallId());
  });
});

describe('deepEqual', () => {
  it('compares JSON values structurally, ignoring key order', () => {
    expect(deepEqual({ a: [1, { b: null }], c: 'x' }, { c: 'x', a: [1, { b: null }] })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: '1' }, { a: 1 })).toBe(false);
    expect(deepEqual(null, {})).toBe(false);
  });
});

describe('store', () => {
  it('returns copies: callers cannot mutate stored rows', () => {
    const store = createCallStore(() => START);
    const { call } = store.create({ question: 'q?', tags: ['a'] });
    call.tags.push('mutated');
    call.args.question = 'changed';
    const again = store.get(call.id);
    expect(again?.tags).toEqual(['a']);
    expect(again?.args.question).toBe('q?');
  });

  it('serialises times as ISO-8601 UTC with milliseconds', () => {
    const store = createCallStore(() => START + 123);
    const { call } = store.create({ question: 'q?' });
    expect(call.created_at).toBe('2026-11-30T09:00:00.123Z');
  });

  it('resolve and edit use the clock at the time of the call', () => {
    const clock = createManualClock(START);
    const store = createCallStore(() => clock.now());
    const { call } = store.create({ question: 'q?' });
    clock.advance(1000);
    const resolved = store.resolve(call.id, 'org_demo', { answer: 'a' });
    expect(resolved.ok && resolved.call.resolved_at).toBe(new Date(START + 1000).toISOString());
    clock.advance(1000);
    const edited = store.updateAnswer(call.id, 'org_demo', 'b');
    expect(edited.ok && edited.call.valid_until).toBe(
      new Date(START + 2000 + 30 * DAY).toISOString(),
    );
  });

  it('keeps rows of another org out of reach of an org-scoped caller', () => {
    const store = createCallStore(() => START);
    const { call } = store.create({ question: 'q?', orgId: 'org_other' });
    expect(store.get(call.id, 'org_demo')).toBeNull();
    expect(store.get(call.id)).not.toBeNull();
    expect(store.list({ orgId: 'org_demo', limit: 100 })).toEqual([]);
    expect(store.cancel(call.id, 'org_demo')).toEqual({
      ok: false,
      status: 404,
      detail: 'Pending tool call not found',
    });
  });
});
