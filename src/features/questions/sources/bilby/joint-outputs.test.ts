import type { ToolOutput } from './assumptions';
import { createJointOutputs, type Output } from './joint-outputs';

const dismissed: ToolOutput = { status: 'dismissed', answers: [], summary: 'Not applicable' };

function recorder() {
  const sent: { conversationId: string; calls: string[] }[] = [];
  const send = async (conversationId: string, outputs: readonly Output[]) => {
    sent.push({ conversationId, calls: outputs.map((o) => o.toolCallId) });
    return new Map<string, unknown>();
  };
  return { sent, send };
}

describe('createJointOutputs', () => {
  it('sends a call alone when nothing is sent with it', async () => {
    const { sent, send } = recorder();
    const joint = createJointOutputs(send);
    await joint.post('c1', 'a', dismissed);
    await joint.post('c1', 'b', dismissed, ['b']);
    expect(sent).toEqual([
      { conversationId: 'c1', calls: ['a'] },
      { conversationId: 'c1', calls: ['b'] },
    ]);
  });

  it('holds the batch until every call has come, then sends one request', async () => {
    const { sent, send } = recorder();
    const joint = createJointOutputs(send);
    const together = ['a', 'b', 'c'];
    const first = joint.post('c1', 'a', dismissed, together);
    const second = joint.post('c1', 'b', dismissed, together);
    expect(sent).toEqual([]);
    await Promise.all([first, second, joint.post('c1', 'c', dismissed, together)]);
    expect(sent).toEqual([{ conversationId: 'c1', calls: ['a', 'b', 'c'] }]);
  });

  it('tells each caller of its own call: taken, or why not', async () => {
    const refused = new Error('gone');
    const joint = createJointOutputs(async () => new Map([['b', refused]]));
    const results = await Promise.allSettled([
      joint.post('c1', 'a', dismissed, ['a', 'b']),
      joint.post('c1', 'b', dismissed, ['a', 'b']),
    ]);
    expect(results).toEqual([
      { status: 'fulfilled', value: undefined },
      { status: 'rejected', reason: refused },
    ]);
  });

  it('a request that fails fails every call in it', async () => {
    const busy = new Error('busy');
    const joint = createJointOutputs(async () => {
      throw busy;
    });
    const results = await Promise.allSettled([
      joint.post('c1', 'a', dismissed, ['a', 'b']),
      joint.post('c1', 'b', dismissed, ['a', 'b']),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('goes without a withdrawn call, and without one that never comes after the wait', async () => {
    vi.useFakeTimers();
    try {
      const { sent, send } = recorder();
      const joint = createJointOutputs(send, 5_000);
      const withdrawn = joint.post('c1', 'a', dismissed, ['a', 'b']);
      joint.withdraw('c1', 'b');
      await withdrawn;
      const late = joint.post('c2', 'x', dismissed, ['x', 'y']);
      await vi.advanceTimersByTimeAsync(4_999);
      expect(sent).toEqual([{ conversationId: 'c1', calls: ['a'] }]);
      await vi.advanceTimersByTimeAsync(1);
      await late;
      expect(sent).toEqual([
        { conversationId: 'c1', calls: ['a'] },
        { conversationId: 'c2', calls: ['x'] },
      ]);
      // The one that came too late goes alone.
      await joint.post('c2', 'y', dismissed, ['x', 'y']);
      expect(sent.at(-1)).toEqual({ conversationId: 'c2', calls: ['y'] });
    } finally {
      vi.useRealTimers();
    }
  });

  it('batches of different conversations do not wait for each other', async () => {
    const { sent, send } = recorder();
    const joint = createJointOutputs(send);
    const one = joint.post('c1', 'a', dismissed, ['a', 'b']);
    await joint.post('c2', 'x', dismissed);
    expect(sent).toEqual([{ conversationId: 'c2', calls: ['x'] }]);
    await Promise.all([one, joint.post('c1', 'b', dismissed, ['a', 'b'])]);
    expect(sent).toHaveLength(2);
  });
});
