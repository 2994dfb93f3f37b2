import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInTheme } from '@/test/render';
import { SLOW_SOURCE_MS, SourceLoadingNote } from './source-notes';

const bilby = { id: 'bilby', kind: 'bilby', label: 'Bilby' } as const;
const vertesia = { id: 'vertesia', kind: 'vertesia', label: 'Vertesia' } as const;

describe('SourceLoadingNote', () => {
  it('names a source still loading in one quiet line, and one slow to answer with its time so far', () => {
    const now = Date.now();
    renderInTheme(
      <SourceLoadingNote
        loading={[
          { source: vertesia, since: now },
          { source: bilby, since: now - SLOW_SOURCE_MS - 1_500 },
        ]}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe(
      'Vertesia is still loading; Bilby is slow: no answer after 4 s. Their questions join the list as each answers.',
    );
  });

  it('says nothing when every source has answered', () => {
    renderInTheme(<SourceLoadingNote loading={undefined} />);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
