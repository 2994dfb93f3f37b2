import type { DehydratedState } from '@tanstack/react-query';
import {
  FIRST_SCREEN_ELEMENT_ID,
  FIRST_SCREEN_VERSION,
  type FirstScreenState,
  packFirstScreen,
  readFirstScreen,
  serializeFirstScreen,
} from './first-screen';

const question = (id: string, status = 'pending') => ({
  id,
  status,
  questionText: `Should ${id} ship? </script><script>alert(1)</script> & more`,
  source: { id: 'reflexio' },
});

const list = (key: string, questions: unknown[]) =>
  ({
    queryKey: ['questions', 'list', { status: key, limit: 500 }],
    queryHash: key,
    state: {
      data: { questions, unreadable: [], truncated: true },
      dataUpdatedAt: 1,
      dataUpdateCount: 1,
      error: null,
      errorUpdateCount: 0,
      errorUpdatedAt: 0,
      fetchFailureCount: 0,
      fetchFailureReason: null,
      fetchMeta: null,
      isInvalidated: false,
      status: 'success',
      fetchStatus: 'idle',
    },
  }) as unknown as DehydratedState['queries'][number];

function stateWith(queries: DehydratedState['queries']): FirstScreenState {
  return {
    version: FIRST_SCREEN_VERSION,
    now: 1_000,
    offsets: {},
    config: '{}',
    parts: [],
    embed: false,
    colorScheme: null,
    density: 'comfortable',
    queries: { mutations: [], queries },
  };
}

function pageWith(text: string): Document {
  const doc = document.implementation.createHTMLDocument('page');
  const script = doc.createElement('script');
  script.type = 'application/json';
  script.id = FIRST_SCREEN_ELEMENT_ID;
  script.textContent = text;
  doc.body.append(script);
  return doc;
}

describe('the first screen state in the page', () => {
  // The bench's inbox: the pending list is the unfiltered list's 500, to the letter.
  const all = [question('a'), question('b'), question('c', 'answered')];
  const pending = [question('a'), question('b'), question('c')];
  const state = stateWith([list('all', all), list('pending', pending)]);

  it('sends a record the lists share once', () => {
    const sent = packFirstScreen(state);
    // a and b once; c twice, since the two reads found it in two states.
    expect(sent.records).toHaveLength(4);
    expect(serializeFirstScreen(state).match(/Should a ship/g)).toHaveLength(1);
  });

  it('reads the lists back as the server had them, one object per record', () => {
    const read = readFirstScreen(pageWith(serializeFirstScreen(state)));
    expect(read).toEqual(state);
    const [first, second] = (read?.queries.queries ?? []).map(
      (query) => (query.state.data as { questions: unknown[] }).questions,
    );
    expect(second?.[0]).toBe(first?.[0]);
    expect(second?.[2]).not.toBe(first?.[2]);
  });

  it('keeps nothing in the page that would end its script element', () => {
    const text = serializeFirstScreen(state);
    expect(text).not.toMatch(/<|>|&/);
  });

  it('is no state at all when a list names a record the page does not hold', () => {
    const sent = packFirstScreen(state);
    const broken = { ...sent, records: sent.records?.slice(0, 2) };
    expect(readFirstScreen(pageWith(JSON.stringify(broken)))).toBeNull();
  });

  it('is no state at all from a server of another version', () => {
    const older = { ...packFirstScreen(state), version: FIRST_SCREEN_VERSION - 1 };
    expect(readFirstScreen(pageWith(JSON.stringify(older)))).toBeNull();
  });

  it('reads records with the same long strings, deep and huge ones, as they were', () => {
    const scope = 'f'.repeat(64);
    let deep: unknown = 'bottom of an agent’s nested value';
    for (let level = 0; level < 2_000; level++) deep = { a: deep, scope };
    const records = [
      { ...question('d'), scopeHash: scope, args: { question: question('d').questionText, deep } },
      { ...question('e'), scopeHash: scope, args: { list: Array(300_000).fill(scope) } },
    ];
    const wide = stateWith([list('pending', records)]);
    expect(readFirstScreen(pageWith(serializeFirstScreen(wide)))).toEqual(wide);
  });

  it('holds the system, tags and scope the records repeat once, as the adapters do', () => {
    const origin = { id: 'reflexio', kind: 'reflexio', label: 'Reflexio' };
    const records = ['f', 'g'].map((id) => ({
      ...question(id),
      source: origin,
      tags: ['deploy'],
      scope: { org_id: 'acme', user_id: 'u1' },
    }));
    const read = readFirstScreen(pageWith(serializeFirstScreen(stateWith([list('p', records)]))));
    const data = read?.queries.queries[0]?.state.data as { questions: typeof records } | undefined;
    const [f, g] = data?.questions ?? [];
    expect(f).toEqual(records[0]);
    expect(g?.source).toBe(f?.source);
    expect(g?.tags).toBe(f?.tags);
    expect(g?.scope).toBe(f?.scope);
  });

  it('shares them when the page says, the records reading the same before and after', () => {
    const origin = { id: 'reflexio', kind: 'reflexio', label: 'Reflexio' };
    const records = ['f', 'g'].map((id) => ({ ...question(id), source: origin, tags: ['deploy'] }));
    const page = pageWith(serializeFirstScreen(stateWith([list('p', records)])));
    const later: (() => void)[] = [];
    const read = readFirstScreen(page, (task) => later.push(task));
    const data = read?.queries.queries[0]?.state.data as { questions: typeof records } | undefined;
    const [f, g] = data?.questions ?? [];
    expect(later).toHaveLength(1);
    expect(g?.source).not.toBe(f?.source);
    for (const task of later) task();
    expect(g?.source).toBe(f?.source);
    expect(g?.tags).toBe(f?.tags);
    expect([f, g]).toEqual(records);
  });

  it('removes the element once read', () => {
    const doc = pageWith(serializeFirstScreen(state));
    readFirstScreen(doc);
    expect(doc.getElementById(FIRST_SCREEN_ELEMENT_ID)).toBeNull();
  });
});
