import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionOrigin } from '../api/schemas';
import { draftScopesOf, draftSlotOf, type QuestionSource } from '../api/source';
import { readDraft, writeDraft } from '../utils/draft-store';
import { moveInboxDrafts } from './inbox-source';
import { createLazySource, type InboxMember, inboxIdentity } from './lazy-source';

const unused = () => Promise.reject(new Error('not used here'));

function member(origin: QuestionOrigin, key: string): InboxMember {
  return {
    origin,
    source: createLazySource({ key, label: origin.label }, unused as () => Promise<QuestionSource>),
  };
}

const reflexio = member({ id: 'reflexio', kind: 'reflexio', label: 'Reflexio' }, 'reflexio:R/');
const vertesia = member({ id: 'vertesia', kind: 'vertesia', label: 'Vertesia' }, 'vertesia:V/');
const bilby = member({ id: 'bilby', kind: 'bilby', label: 'Bilby' }, 'bilby:B/');

describe('where an inbox of several systems keeps drafts', () => {
  afterEach(() => localStorage.clear());

  it('under each system’s own key and id: the one Reflexio had alone, whatever is added', () => {
    const alone = reflexio.source;
    const three = createLazySource(inboxIdentity([reflexio, vertesia, bilby]), unused);
    expect(draftSlotOf(three, 'ptc_1')).toEqual(draftSlotOf(alone, 'ptc_1'));
    expect(draftSlotOf(three, 'vertesia:ask1')).toEqual({ scope: 'vertesia:V/', id: 'ask1' });
    expect(draftSlotOf(three, 'bilby:conv:call')).toEqual({ scope: 'bilby:B/', id: 'conv:call' });
    expect(draftScopesOf(three)).toEqual([
      { scope: 'reflexio:R/', prefix: '' },
      { scope: 'vertesia:V/', prefix: 'vertesia:' },
      { scope: 'bilby:B/', prefix: 'bilby:' },
    ]);
  });

  it('carries drafts kept under the joined key over to their systems, once, keeping newer ones', () => {
    const joined = 'reflexio:R/|vertesia:V/|bilby:B/';
    writeDraft(joined, 'ptc_1', 'reflexio text', 1);
    writeDraft(joined, 'bilby:conv:call', 'bilby text', 1);
    writeDraft(joined, 'vertesia:ask1', 'old vertesia text', 1);
    writeDraft('vertesia:V/', 'ask1', 'newer vertesia text', 2);
    moveInboxDrafts([reflexio, vertesia, bilby]);
    expect(readDraft('reflexio:R/', 'ptc_1')?.text).toBe('reflexio text');
    expect(readDraft('bilby:B/', 'conv:call')?.text).toBe('bilby text');
    expect(readDraft('vertesia:V/', 'ask1')?.text).toBe('newer vertesia text');
    expect(Object.keys(localStorage).filter((key) => key.includes(joined))).toEqual([]);
  });

  it('one system other than Reflexio: its old prefixed ids become its own, its own stay', () => {
    writeDraft('bilby:B/', 'bilby:conv:old', 'typed before', 1);
    writeDraft('bilby:B/', 'conv:new', 'typed after', 1);
    moveInboxDrafts([bilby]);
    expect(readDraft('bilby:B/', 'conv:old')?.text).toBe('typed before');
    expect(readDraft('bilby:B/', 'conv:new')?.text).toBe('typed after');
    expect(readDraft('bilby:B/', 'bilby:conv:old')).toBeNull();
  });
});
