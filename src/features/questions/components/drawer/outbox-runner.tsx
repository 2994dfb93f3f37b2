import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useNow } from '@/lib/clock';
import { describeError } from '@/lib/describe-error';
import { useCancelQuestion, useMarkNotApplicable, useResolveQuestion } from '../../api/mutations';
import { useQuestionSource } from '../../api/source';
import {
  dropHeld,
  type Held,
  heldHere,
  readHeld,
  registerUndo,
  subscribeHeld,
  Undone,
  undoHeld,
} from '../../utils/outbox';
import { questionIdFromPath, questionPath } from '../../utils/paths';

const doneTitles = {
  resolve: 'Answer sent',
  'not-applicable': 'Marked not applicable',
  cancel: 'Question cancelled',
};
// What the reviewer did, said at once (as a mail client's "Sent · Undo"): it goes when the note does.
const waitingTitles = {
  resolve: 'Sent',
  'not-applicable': 'Marked not applicable',
  cancel: 'Question cancelled',
};

/** Gone from this tab's page (a reload) before it was sent: adopted, it is checked first. */
class NotPending extends Error {}

function Waiting({ held, onUndo }: { held: Held; onUndo: () => void }) {
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between">
      {/* The text colour: a note's own (dimmed) grey is under AA on its background. */}
      <Text size="sm" dir="auto" lineClamp={2} c="var(--mantine-color-text)" miw={0} flex={1}>
        “{held.text}”
      </Text>
      <Button size="compact-sm" variant="default" onClick={onUndo} flex="none">
        Undo
      </Button>
    </Group>
  );
}

/**
 * Sends the final actions this browser holds back (utils/outbox.ts) when their few seconds are
 * up, with a note offering the undo meanwhile. Mounted with the list, after its first screen; each
 * action is taken by one tab only (a Web Lock named after it), and one left by a page that went
 * away (a reload, a closed tab) is taken over: sent once its time is up, if its question is still
 * pending.
 */
export function OutboxRunner() {
  const resolve = useResolveQuestion();
  const notApplicable = useMarkNotApplicable();
  const cancel = useCancelQuestion();
  const source = useQuestionSource();
  const navigate = useNavigate();
  const location = useLocation();
  const latest = useRef({ resolve, notApplicable, cancel, source, navigate, location });
  latest.current = { resolve, notApplicable, cancel, source, navigate, location };

  useEffect(() => {
    const running = new Set<string>();
    let stopped = false;

    const run = async (held: Held) => {
      const { key } = held;
      let undo = () => {};
      // Undone here (this page's note or drawer), not in another tab.
      let undoneHere = false;
      const undone = new Promise<never>((_, reject) => {
        undo = () => {
          undoneHere = true;
          reject(new Undone());
        };
      });
      // Unhandled until the hold waits on it.
      undone.catch(() => {});
      const unregister = registerUndo(key, undo);
      const onUndo = () => undoHeld(key);
      notifications.show({
        id: key,
        title: waitingTitles[held.action],
        message: <Waiting held={held} onUndo={onUndo} />,
        autoClose: false,
        withCloseButton: false,
      });
      const adopted = !heldHere(key);
      const hold = async () => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        try {
          await Promise.race([
            new Promise<void>((resolve) => {
              timer = setTimeout(resolve, Math.max(0, held.sendAt - Date.now()));
            }),
            undone,
          ]);
        } finally {
          clearTimeout(timer);
        }
        unregister();
        // Undone in another tab (or before this runner started): it left storage.
        if (!readHeld().some((other) => other.key === key)) throw new Undone();
        if (adopted) {
          const now = await latest.current.source.get(held.id);
          if (now.status !== 'pending') throw new NotPending();
        }
      };
      const { resolve: answer, notApplicable: dismiss, cancel: end } = latest.current;
      const vars = {
        id: held.id,
        hold,
        ...(held.draftText === undefined ? {} : { draftText: held.draftText }),
        ...(held.validForSeconds === undefined ? {} : { validForSeconds: held.validForSeconds }),
      };
      try {
        if (held.action === 'cancel') await end.mutateAsync(vars);
        else if (held.action === 'not-applicable') await dismiss.mutateAsync(vars);
        else
          await answer.mutateAsync({
            ...vars,
            result: held.result ?? {},
            ...(held.answers ? { answers: held.answers } : {}),
          });
        notifications.update({
          id: key,
          color: 'green',
          title: doneTitles[held.action],
          message: 'The agent has been told.',
          autoClose: 4000,
          withCloseButton: true,
        });
      } catch (error) {
        if (error instanceof Undone) {
          notifications.hide(key);
          // Back to the question, the answer in its box (its draft was never removed).
          const { navigate: go, location: at } = latest.current;
          if (undoneHere && questionIdFromPath(at.pathname) !== held.id)
            go({ pathname: questionPath(held.id), search: at.search });
        } else {
          const reason =
            error instanceof NotPending
              ? 'The question was no longer waiting when it was to be sent, so nothing was sent.'
              : `${describeError(error).title}. Nothing was sent; open the question to try again.`;
          notifications.update({
            id: key,
            color: 'red',
            title: `Not sent: “${held.text}”`,
            message: reason,
            autoClose: false,
            withCloseButton: true,
          });
        }
      } finally {
        unregister();
        dropHeld(key);
        running.delete(key);
      }
    };

    const take = (held: Held) => {
      if (running.has(held.key) || stopped) return;
      running.add(held.key);
      const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
      if (!locks) {
        void run(held);
        return;
      }
      void locks.request(`questions-inbox:outbox:${held.key}`, { ifAvailable: true }, (lock) => {
        // Another tab holds it back: it sends it (and, if that tab goes, this one takes over).
        if (!lock) {
          running.delete(held.key);
          return;
        }
        return run(held);
      });
    };
    const scan = () => {
      for (const held of readHeld()) take(held);
    };
    scan();
    const unsubscribe = subscribeHeld(scan);
    // A tab that held some back may close: its locks go with it, and this one takes them over.
    const poll = setInterval(() => {
      if (readHeld().length > 0) scan();
    }, 2_000);
    return () => {
      stopped = true;
      unsubscribe();
      clearInterval(poll);
    };
  }, []);
  return null;
}

/** In the drawer, while its question's final action waits: when it goes, and Undo. */
export function HeldNote({ held }: { held: Held }) {
  const now = useNow();
  const seconds = Math.max(0, Math.ceil((held.sendAt - now) / 1000));
  return (
    <Group gap="xs" data-testid="held-note">
      <Text size="sm" role="status">
        {waitingTitles[held.action]} · goes to the agent in {seconds} s
      </Text>
      <Button size="compact-sm" variant="default" onClick={() => undoHeld(held.key)}>
        Undo
      </Button>
    </Group>
  );
}
