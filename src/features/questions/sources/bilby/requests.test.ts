import type { SourcePrompt } from '../types';
import {
  buildAnswerOutput,
  buildBilbySummary,
  buildDismissOutput,
  getConversationRequest,
  listConversationsRequest,
  toolOutputsRequest,
} from './requests';

const ORG = '6f1c2a9e-4b7d-4c1e-9a2f-3d5e7b9c1a2f';
const config = { apiBaseUrl: 'https://pulse.bilby.ai/api/v1', organizationId: ORG };

const postgres: SourcePrompt = {
  text: 'Which Postgres version?',
  header: 'Postgres',
  options: [
    { label: 'Postgres 16', description: null },
    { label: 'Postgres 17', description: null },
  ],
  multiSelect: false,
};
const extensions: SourcePrompt = {
  text: 'Which extensions?',
  header: '',
  options: [
    { label: 'PostGIS', description: null },
    { label: 'pgvector', description: null },
  ],
  multiSelect: true,
};

describe('Bilby requests', () => {
  it('organizationId on every request; the cursor when there is one', () => {
    expect(listConversationsRequest(config, null).url).toBe(
      `https://pulse.bilby.ai/api/v1/conversations?organizationId=${ORG}`,
    );
    expect(listConversationsRequest(config, 'abc=').url).toBe(
      `https://pulse.bilby.ai/api/v1/conversations?organizationId=${ORG}&cursor=abc%3D`,
    );
    expect(getConversationRequest(config, 'c1').url).toBe(
      `https://pulse.bilby.ai/api/v1/conversations/c1?organizationId=${ORG}`,
    );
    expect(listConversationsRequest({ apiBaseUrl: 'https://b/api/v1/' }, null).url).toBe(
      'https://b/api/v1/conversations',
    );
  });

  it('tool-outputs: the documented body and nothing more', () => {
    const request = toolOutputsRequest(config, 'c1', [
      { toolCallId: 't1', output: buildDismissOutput() },
    ]);
    expect(request).toMatchObject({
      method: 'POST',
      url: `https://pulse.bilby.ai/api/v1/conversations/c1/tool-outputs?organizationId=${ORG}`,
      body: {
        outputs: [
          {
            toolCallId: 't1',
            output: { status: 'dismissed', answers: [], summary: 'Not applicable' },
          },
        ],
      },
    });
    expect(() =>
      toolOutputsRequest(config, 'c1', [
        { toolCallId: 't1', output: { ...buildDismissOutput(), extra: 1 } as never },
      ]),
    ).toThrow();
    expect(() =>
      toolOutputsRequest(config, 'c1', [
        { toolCallId: 't1', output: { ...buildDismissOutput(), summary: ' ' } },
      ]),
    ).toThrow();
  });
});

describe('buildBilbySummary', () => {
  it('"Header: choice" per question; the question text when there is no header', () => {
    expect(buildBilbySummary([postgres], [{ selected: ['Postgres 17'] }])).toBe(
      'Postgres: Postgres 17',
    );
    expect(
      buildBilbySummary(
        [postgres, extensions],
        [{ selected: [], custom: ' 18 beta ' }, { selected: ['PostGIS', 'pgvector'] }],
      ),
    ).toBe('Postgres: 18 beta; Which extensions?: PostGIS, pgvector');
  });

  it('is never empty', () => {
    expect(buildBilbySummary([postgres], [{ selected: [], custom: ' ' }])).toBe('Not applicable');
  });
});

describe('buildAnswerOutput', () => {
  it('labels, custom text and the summary', () => {
    expect(
      buildAnswerOutput([postgres], [{ selected: ['Postgres 16'], custom: ' keep ' }]),
    ).toEqual({
      status: 'answered',
      answers: [{ question: 'Which Postgres version?', selected: ['Postgres 16'], custom: 'keep' }],
      summary: 'Postgres: Postgres 16, keep',
    });
  });

  it('refuses what the server would refuse', () => {
    expect(() => buildAnswerOutput([postgres], [{ selected: ['Postgres 15'] }])).toThrow(/option/);
    expect(() =>
      buildAnswerOutput([postgres], [{ selected: ['Postgres 16', 'Postgres 17'] }]),
    ).toThrow(/one option/);
    expect(() => buildAnswerOutput([postgres], [{ selected: [] }])).toThrow(/no answer/);
    expect(() =>
      buildAnswerOutput([postgres, extensions], [{ selected: ['Postgres 16'] }]),
    ).toThrow(RangeError);
  });
});
