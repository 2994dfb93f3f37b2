import type { ToolOutput } from './assumptions';

export interface Output {
  toolCallId: string;
  output: ToolOutput;
}

/**
 * Sends one request with `outputs`; resolves with the outputs that failed while the others were
 * taken (by tool call id, with why), rejects when none was taken.
 */
export type SendOutputs = (
  conversationId: string,
  outputs: readonly Output[],
) => Promise<ReadonlyMap<string, unknown>>;

/** How long outputs wait for the rest of their batch before they go without it. */
export const JOINT_WAIT_MS = 5_000;

interface Settler {
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Batch {
  conversationId: string;
  /** Tool calls of the batch that have not come yet. */
  waiting: Set<string>;
  outputs: Output[];
  settlers: Map<string, Settler>;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * Bilby answers a conversation's calls in one request or not at all: after one is accepted, the
 * agent's turn runs and a second request is refused (409) until it ends. So the outputs of a bulk
 * action or a look-alike group in one conversation wait for each other and go as one request;
 * each caller still hears of its own call (taken, or why not).
 */
export function createJointOutputs(send: SendOutputs, waitMs = JOINT_WAIT_MS) {
  const batches = new Map<string, Batch>();
  // Calls whose batch went without them after the wait (by conversation): they go alone.
  const late = new Map<string, Set<string>>();

  function flush(batch: Batch) {
    if (batches.get(batch.conversationId) === batch) batches.delete(batch.conversationId);
    if (batch.waiting.size > 0) late.set(batch.conversationId, batch.waiting);
    if (batch.timer !== null) clearTimeout(batch.timer);
    batch.timer = null;
    if (batch.outputs.length === 0) return;
    send(batch.conversationId, batch.outputs).then(
      (failures) => {
        for (const [toolCallId, settler] of batch.settlers) {
          if (failures.has(toolCallId)) settler.reject(failures.get(toolCallId));
          else settler.resolve();
        }
      },
      (error: unknown) => {
        for (const settler of batch.settlers.values()) settler.reject(error);
      },
    );
  }

  async function alone(conversationId: string, output: Output): Promise<void> {
    const failures = await send(conversationId, [output]);
    if (failures.has(output.toolCallId)) throw failures.get(output.toolCallId);
  }

  return {
    /**
     * Sends `output` for `toolCallId`: alone, or, when `together` names other calls of the same
     * conversation, in one request with theirs once they have all come (or been withdrawn, or
     * after `waitMs`).
     */
    post(
      conversationId: string,
      toolCallId: string,
      output: ToolOutput,
      together: readonly string[] = [],
    ): Promise<void> {
      let batch = batches.get(conversationId);
      const lateCalls = late.get(conversationId);
      if (lateCalls?.delete(toolCallId)) {
        if (lateCalls.size === 0) late.delete(conversationId);
        return alone(conversationId, { toolCallId, output });
      }
      if (!batch?.waiting.has(toolCallId)) {
        // A batch of this conversation that does not expect it is still gathering: this one
        // could only be refused while that one's turn runs, so it goes alone and says so.
        if (batch || !together.includes(toolCallId) || together.length < 2) {
          return alone(conversationId, { toolCallId, output });
        }
        batch = {
          conversationId,
          waiting: new Set(together),
          outputs: [],
          settlers: new Map(),
          timer: null,
        };
        batches.set(conversationId, batch);
      }
      const joined = batch;
      joined.waiting.delete(toolCallId);
      joined.outputs.push({ toolCallId, output });
      const settled = new Promise<void>((resolve, reject) => {
        joined.settlers.set(toolCallId, { resolve, reject });
      });
      if (joined.waiting.size === 0) flush(joined);
      else joined.timer ??= setTimeout(() => flush(joined), waitMs);
      return settled;
    },

    /** A call of a batch will not come (it failed before sending): the others go without it. */
    withdraw(conversationId: string, toolCallId: string): void {
      const batch = batches.get(conversationId);
      if (!batch?.waiting.delete(toolCallId)) return;
      if (batch.waiting.size === 0) flush(batch);
    },
  };
}
