import {
  Anchor,
  Button,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type CSSProperties,
  type FormEvent,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type Ref,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useSearchParams } from 'react-router';
import { JsonBlock } from '@/components/json-block';
import { LoadBoundary } from '@/components/load-boundary';
import { ANSWER_EVENT, useShell } from '@/config/shell-context';
import { isApiError } from '@/lib/api-client';
import { useClock, useHasPassed, useNow } from '@/lib/clock';
import { useAfterHydration } from '@/lib/first-screen';
import { describeSeconds, formatDuration } from '@/lib/format-time';
import { useResolveQuestion, useUpdateAnswer } from '../../api/mutations';
import type { Question } from '../../api/schemas';
import { useDraft } from '../../hooks/use-drafts';
import { useDrawerFlow } from '../../hooks/use-drawer-flow';
import { useHoldBack } from '../../hooks/use-hold-back';
import { useRecentAnswers } from '../../hooks/use-recent-answers';
import { isTextField, useKeys } from '../../hooks/use-shortcuts';
import {
  checkAnswer,
  checkJsonResult,
  fitsChoices,
  jsonArgumentsStart,
  jsonResultTemplate,
  MAX_ANSWER_LENGTH,
  parseValidFor,
  quickAnswers,
} from '../../utils/answer-format';
import {
  checkPromptAnswers,
  hasAnyAnswer,
  parseAnswers,
  promptFormKind,
  serializeAnswers,
  summarizeAnswers,
} from '../../utils/prompt-answers';
import type { AnswerMode } from '../../utils/question-policy';
import { answerText, isNotApplicable } from '../../utils/status';
import { formatBytes, insertAtCursor } from '../../utils/text';
import { ActionError } from './action-error';
import classes from './answer-form.module.css';
import { DraftStatus } from './draft-status';
import type { GroupAnswer } from './lookalike-group';
import { PromptFields } from './prompt-fields';
import { cssGrows } from './textarea-sizing';

export interface AnswerFormProps {
  question: Question;
  mode: AnswerMode;
  /** Why the question can no longer take this answer (expired, cancelled…); the text stays, read-only. */
  closedReason: string | null;
  /** Other actions (Not applicable, Cancel) rendered beside the submit button. */
  extraActions?: ReactNode;
  /** Another action on this question is in flight. */
  busy: boolean;
  /** Sends a checked answer instead of resolving this question alone (a look-alike group's). */
  onAnswer?: (vars: GroupAnswer) => void;
  handle?: Ref<AnswerFormHandle>;
}

export interface AnswerFormHandle {
  /** Puts `text` in the box (kept as a draft) and the cursor there ("Use this answer"). */
  fill(text: string): void;
}

const submitLabels: Record<AnswerMode, string> = {
  answer: 'Answer',
  edit: 'Edit answer',
  json: 'Resolve',
};

const successTitles: Record<AnswerMode, string> = {
  answer: 'Answer sent',
  edit: 'Answer changed',
  json: 'Result sent',
};

function RetryWait({ until }: { until: number }) {
  const now = useNow();
  return (
    <Text size="sm" c="dimmed">
      The server asked to wait: you can send again in {formatDuration(until - now)}.
    </Text>
  );
}

/**
 * Asked before an answer that is none of the choices the question's format offers goes: the agent
 * asked for one of them and may not understand anything else. With the focus on it.
 */
function OffChoicesAsk({
  answer,
  choices,
  onSend,
  onKeep,
}: {
  answer: string;
  choices: readonly string[];
  onSend: () => void;
  onKeep: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    <Stack
      gap="xs"
      ref={box}
      tabIndex={-1}
      role="alertdialog"
      aria-label="Send an answer that is none of the choices?"
      className={classes.ask}
    >
      <Text size="sm">
        “<span dir="auto">{answer.length > 80 ? `${answer.slice(0, 80)}…` : answer}</span>” is none
        of the answers this question asks for ({choices.join(', ')}): the agent may not understand
        it. Send it anyway?
      </Text>
      <Group gap="xs">
        <Button size="compact-sm" onClick={onSend}>
          Send anyway
        </Button>
        <Button size="compact-sm" variant="default" onClick={onKeep}>
          Keep editing
        </Button>
      </Group>
    </Stack>
  );
}

/** The box, or the first of the fields: where `a`, Enter and "answer and next" put the cursor. */
function answerField(box: HTMLElement | null, fields: HTMLElement | null): HTMLElement | null {
  return box ?? fields?.querySelector<HTMLElement>('textarea, input:not([type="hidden"])') ?? null;
}

/**
 * A digit is a quick answer only while the cursor is in this question (its drawer or pane): beside
 * the list a row may have it, and a digit typed there must not write into the question open.
 */
function cursorInQuestion(box: HTMLElement): boolean {
  const question = box.closest('[role="dialog"]');
  return question?.contains(document.activeElement) ?? false;
}

function initialText(question: Question, mode: AnswerMode): string {
  if (mode === 'edit') return isNotApplicable(question) ? '' : (answerText(question) ?? '');
  if (mode === 'json') return jsonResultTemplate(question.answerFormat);
  return '';
}

export function AnswerForm({
  question,
  mode,
  closedReason,
  extraActions,
  busy,
  onAnswer,
  handle,
}: AnswerFormProps) {
  const draft = useDraft(question.id);
  const current = initialText(question, mode);
  // With no template, the box starts empty and the arguments are offered beside it.
  const argumentsStart =
    mode === 'json' && current === '' ? jsonArgumentsStart(question.args) : null;
  // A current answer longer than an answer may be is shown above, not put in the box: laying out
  // a megabyte in a text box freezes the tab. "Edit this answer" puts it there on request.
  const [loadLong, setLoadLong] = useState(false);
  const longCurrent = current.length > MAX_ANSWER_LENGTH;
  const baseline = longCurrent && !loadLong ? '' : current;
  // What is typed lives in the draft store (so it survives anything); local state only holds
  // what the browser refused to store.
  const [unsaved, setUnsaved] = useState<string | null>(null);
  const text = unsaved ?? draft.draft?.text ?? baseline;
  const [validFor, setValidFor] = useState('');
  const [advanced, setAdvanced] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [validForError, setValidForError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState<{
    result: Record<string, unknown>;
    validForSeconds: number | undefined;
    draftText: string;
  } | null>(null);
  // An answer that is none of the choices its format offers, held until the reviewer says send.
  const [offChoices, setOffChoices] = useState<string | null>(null);
  const resolve = useResolveQuestion();
  const update = useUpdateAnswer();
  const holdBack = useHoldBack();
  /** A final answer waits its few seconds of undo (the runner sends it); the drawer moves on. */
  const heldBack = (vars: Parameters<typeof holdBack>[2]) => {
    if (!holdBack(question, 'resolve', vars)) return false;
    flow.done(question.id);
    return true;
  };
  const mutation = mode === 'edit' ? update : resolve;
  const advancedId = useId();
  // A record holding several questions (or options to choose) is answered one field each.
  const kind = mode === 'answer' ? promptFormKind(question) : 'single';
  const prompts = question.prompts ?? [];
  const answers = kind === 'single' ? [] : parseAnswers(text, prompts);
  const [promptErrors, setPromptErrors] = useState<(string | null)[]>([]);
  const formats = mode === 'json' || kind !== 'single' ? [] : quickAnswers(question.answerFormat);
  // A free-text question offers the reviewer's own recent answers on the same keys instead.
  const recentAnswers = useRecentAnswers();
  const recent =
    mode === 'json' || kind !== 'single' || formats.length > 0 ? [] : recentAnswers.answers;
  const choices = formats.length > 0 ? formats : recent;
  const closed = closedReason !== null;
  const box = useRef<HTMLTextAreaElement>(null);
  const fields = useRef<HTMLDivElement>(null);
  const firstField = () => answerField(box.current, fields.current);
  const flow = useDrawerFlow();
  // Opening a question puts the cursor in the drawer, not in this box (a `j` pressed next must not
  // become the answer); after "answer and next" the reviewer is answering, so the box takes it.
  useEffect(() => {
    if (flow.takeAnswerFocus(question.id) && !closed)
      answerField(box.current, fields.current)?.focus();
  }, [flow, question.id, closed]);
  const focusBox = (event: KeyboardEvent) => {
    const field = firstField();
    if (closed || !field) return;
    event.preventDefault();
    field.focus();
  };
  // Enter on a button or a link is that control's; on the drawer itself it starts the answer.
  const startOnEnter = (event: KeyboardEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('button, a, [role="button"], input') || isTextField(target)) return;
    focusBox(event);
  };
  useKeys(
    {
      a: focusBox,
      e: focusBox,
      Enter: startOnEnter,
      ...Object.fromEntries(
        choices.slice(0, 9).map((option, index) => [
          String(index + 1),
          (event: KeyboardEvent) => {
            if (closed || !box.current || !cursorInQuestion(box.current)) return;
            event.preventDefault();
            pickQuick(option);
          },
        ]),
      ),
    },
    !closed,
  );
  const clock = useClock();
  // After a 429 the server said when to try again; the button waits that long.
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const retryOpen = useHasPassed(retryAt);
  const waiting = retryAt !== null && !retryOpen;

  const change = (value: string) => {
    setFieldError(null);
    setOffChoices(null);
    if (value === baseline) {
      draft.discard();
      setUnsaved(null);
    } else {
      setUnsaved(draft.save(value) ? null : value);
    }
  };

  const changeAnswers = (next: typeof answers) => {
    setPromptErrors([]);
    change(hasAnyAnswer(next) ? serializeAnswers(next) : baseline);
  };

  /** A quick answer fills the box and puts the cursor there: Ctrl/⌘ + Enter sends it. */
  const pickQuick = (option: string) => {
    change(option);
    box.current?.focus();
  };
  useImperativeHandle(handle, () => ({ fill: pickQuick }));

  // A quick answer chosen on a notification that could not be sent from there (public/push-sw.js:
  // keys only this page holds, a sign-in): the question opens with it in the box, one click from
  // sent. Only one of this question's own choices, and never sent from the address alone.
  const [search, setSearch] = useSearchParams();
  const chosen = search.get('answer');
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per address that brings one.
  useEffect(() => {
    if (chosen === null) return;
    if (!closed && mode === 'answer' && formats.includes(chosen)) pickQuick(chosen);
    setSearch(
      (params) => {
        params.delete('answer');
        return params;
      },
      { replace: true },
    );
  }, [chosen]);

  // The team's snippets (a part of their own): one goes in at the cursor, where the reviewer left
  // the box, or after what is typed; nothing typed is replaced, and nothing is sent.
  const Snippets = useShell().snippets?.Snippets;
  const caret = useRef<number | null>(null);
  const placeCaret = useRef<number | null>(null);
  const insertSnippet = (snippet: string) => {
    const next = insertAtCursor(text, caret.current, snippet);
    change(next.text);
    caret.current = next.cursor;
    placeCaret.current = next.cursor;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the inserted text is on screen.
  useLayoutEffect(() => {
    const at = placeCaret.current;
    if (at === null || !box.current) return;
    placeCaret.current = null;
    box.current.focus();
    box.current.setSelectionRange(at, at);
  }, [text]);

  const callbacks = {
    onSuccess: () => {
      notifications.show({
        color: 'green',
        title: successTitles[mode],
        message: 'The agent will resume with it.',
      });
      flow.done(question.id);
    },
    onError: (error: unknown) => {
      setServerError(error);
      if (isApiError(error) && error.kind === 'rate-limited') {
        setRetryAt(clock.now() + (error.retryAfterMs ?? 5_000));
      }
      if (isApiError(error) && error.kind === 'validation') {
        for (const field of error.fieldErrors) {
          if (field.field.startsWith('valid_for_seconds')) {
            setValidForError(field.message);
            setAdvanced(true);
          } else if (field.field.startsWith('answer') || field.field.startsWith('result')) {
            setFieldError(field.message);
          }
        }
        if (error.fieldErrors.length === 0 && error.detail) setFieldError(error.detail);
      }
    },
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (closed || mutation.isPending || busy || waiting) return;
    // A part on the page may ask first (someone else has claimed the question): it cancels this
    // event and calls `go` once the reviewer says yes. A claim never blocks: it only asks.
    const asking = new CustomEvent(ANSWER_EVENT, {
      cancelable: true,
      detail: { id: question.id, source: question.source.id, go: () => send() },
    });
    if (document.dispatchEvent(asking)) send();
  };

  const send = (anyway = false) => {
    setServerError(null);
    setOffChoices(null);
    const validity = parseValidFor(validFor);
    setValidForError(validity.ok ? null : validity.message);
    if (!validity.ok) setAdvanced(true);
    const validForSeconds = validity.ok ? validity.seconds : undefined;

    if (kind !== 'single') {
      const check = checkPromptAnswers(prompts, answers);
      setPromptErrors(check.ok ? [] : check.errors);
      if (!check.ok || !validity.ok) return;
      const summary = summarizeAnswers(prompts, check.answers);
      if (onAnswer) {
        onAnswer({ answer: summary, answers: check.answers, validForSeconds, draftText: text });
        return;
      }
      if (
        heldBack({
          result: { answer: summary },
          answers: check.answers,
          validForSeconds,
          draftText: text,
        })
      )
        return;
      resolve.mutate(
        {
          id: question.id,
          result: { answer: summary },
          answers: check.answers,
          validForSeconds,
          draftText: text,
        },
        callbacks,
      );
      return;
    }
    if (mode === 'json') {
      const check = checkJsonResult(text);
      setFieldError(check.ok ? null : check.message);
      if (!check.ok || !validity.ok) return;
      // Like Cancel: the result ends the call for good, so it is confirmed first.
      setConfirming({ result: check.result, validForSeconds, draftText: text });
      return;
    }
    const check = checkAnswer(text);
    let message = check.ok ? null : check.message;
    if (
      check.ok &&
      mode === 'edit' &&
      check.answer === baseline.trim() &&
      validForSeconds === undefined
    ) {
      message = 'This is already the answer. Change it first, or close the question.';
    }
    setFieldError(message);
    if (!check.ok || message || !validity.ok) return;
    // The agent asked for one of these: anything else it may not understand. Asked, not refused.
    if (!anyway && !fitsChoices(check.answer, formats)) {
      setOffChoices(check.answer);
      return;
    }
    // A free-text answer the server accepted is offered again on the next free-text question.
    const remembering = {
      ...callbacks,
      onSuccess: () => {
        recentAnswers.remember(check.answer, formats);
        callbacks.onSuccess();
      },
    };
    if (mode === 'answer' && onAnswer) {
      onAnswer({ answer: check.answer, validForSeconds, draftText: text });
    } else if (mode === 'edit') {
      update.mutate(
        { id: question.id, answer: check.answer, validForSeconds, draftText: text },
        remembering,
      );
    } else if (!heldBack({ result: { answer: check.answer }, validForSeconds, draftText: text })) {
      resolve.mutate(
        { id: question.id, result: { answer: check.answer }, validForSeconds, draftText: text },
        remembering,
      );
    }
  };

  /** Ctrl/⌘ + Enter sends; the first Esc leaves the field (shortcuts work again), the next closes the drawer. */
  // The server's first screen assumes a browser whose boxes grow through CSS (most do).
  const grows = useAfterHydration(cssGrows, () => true);
  // In the server's first screen the box cannot be typed into until the app runs the page: what
  // was typed there would be lost when the app takes over.
  const notYet = useAfterHydration(false, () => true);
  const fieldKeys = (event: ReactKeyboardEvent<HTMLElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      event.currentTarget
        .closest('[role="dialog"]')
        ?.querySelector<HTMLElement>('[data-drawer-home]')
        ?.focus();
    }
  };

  const sendResult = () => {
    if (!confirming) return;
    const { result, validForSeconds, draftText } = confirming;
    setConfirming(null);
    if (heldBack({ result, validForSeconds, draftText })) return;
    resolve.mutate({ id: question.id, result, validForSeconds, draftText }, callbacks);
  };

  const label = mode === 'json' ? 'Result (JSON)' : 'Answer';
  const description =
    mode === 'json'
      ? `The ${question.toolName} tool waits for a JSON object as its result. Once sent, it cannot be changed.`
      : question.answerFormat
        ? `Expected format: ${question.answerFormat}`
        : undefined;
  const near = text.length > MAX_ANSWER_LENGTH * 0.8;

  return (
    <form
      onSubmit={submit}
      noValidate
      className={classes.form}
      aria-label={mode === 'edit' ? 'Edit the answer' : 'Answer the question'}
    >
      {choices.length > 0 && !closed && (
        <Group
          gap={6}
          role="group"
          aria-label={recent.length > 0 ? 'Recent answers' : 'Answer choices'}
          className={classes.choices}
        >
          <Text size="sm" c="dimmed">
            {recent.length > 0 ? 'Your recent answers:' : 'Answer with one of:'}
          </Text>
          {choices.map((option, index) => (
            <Button
              key={option}
              size="compact-sm"
              variant="default"
              onClick={() => pickQuick(option)}
              aria-keyshortcuts={index < 9 ? String(index + 1) : undefined}
              disabled={mutation.isPending}
              classNames={{ root: classes.choice, label: classes.choiceLabel }}
              title={option}
            >
              <span className={classes.choiceText}>{option}</span>
            </Button>
          ))}
          {recent.length > 0 && (
            <Button
              size="compact-sm"
              variant="subtle"
              color="gray"
              onClick={recentAnswers.forget}
              aria-label="Forget recent answers"
            >
              Forget
            </Button>
          )}
        </Group>
      )}
      {longCurrent && !loadLong && draft.draft === null && unsaved === null && !closed && (
        <Group gap="xs" data-testid="long-answer-note">
          <Text size="sm" c="dimmed">
            The current answer ({formatBytes(current.length)}) is longer than the{' '}
            {MAX_ANSWER_LENGTH.toLocaleString('en')} characters an answer can have here, so the box
            starts empty: type a new answer, or
          </Text>
          <Button size="compact-sm" variant="default" onClick={() => setLoadLong(true)}>
            Edit this answer
          </Button>
        </Group>
      )}
      {question.busy && !closed && (
        <Text size="sm" c="dimmed" data-testid="agent-busy-note">
          The agent is working in this conversation right now, so an answer may be refused for a
          moment. What you choose is kept until it goes through.
        </Text>
      )}
      {Snippets && !closed && kind === 'single' && mode !== 'json' && (
        // Its place is kept while its code and list come: the box below does not move then.
        <LoadBoundary
          what="Team snippets"
          parts={[Snippets]}
          quiet
          placeholder={<div aria-hidden className={classes.snippetsPlace} />}
        >
          <Snippets
            question={question}
            currentText={() => text}
            insert={insertSnippet}
            disabled={mutation.isPending}
          />
        </LoadBoundary>
      )}
      {kind !== 'single' ? (
        <div ref={fields}>
          <PromptFields
            kind={kind}
            prompts={prompts}
            answers={answers}
            errors={promptErrors}
            onChange={changeAnswers}
            readOnly={closed || mutation.isPending || notYet}
            onFieldKeyDown={fieldKeys}
          />
        </div>
      ) : (
        <Textarea
          label={label}
          description={description}
          className={[
            classes.textarea,
            text.length <= MAX_ANSWER_LENGTH ? classes.grow : '',
            mode === 'json' ? classes.json : '',
          ].join(' ')}
          style={{ '--grow-min-rows': mode === 'json' ? 5 : 3 } as CSSProperties}
          value={text}
          onChange={(event) => change(event.currentTarget.value)}
          onBlur={(event) => {
            caret.current = event.currentTarget.selectionEnd;
          }}
          onKeyDown={fieldKeys}
          // Measuring a very long text on every change is what freezes a tab: past the limit the
          // box keeps a fixed height and scrolls.
          autosize={!grows && text.length <= MAX_ANSWER_LENGTH}
          rows={text.length <= MAX_ANSWER_LENGTH ? undefined : 16}
          minRows={mode === 'json' ? 5 : 3}
          maxRows={16}
          error={fieldError}
          ref={box}
          // Mantine closes the drawer on Esc from a window listener; from the box, Esc leaves the box.
          data-mantine-stop-propagation="true"
          readOnly={closed || mutation.isPending || notYet}
          spellCheck={mode !== 'json'}
          dir="auto"
        />
      )}
      {mode === 'json' && argumentsStart !== null && (
        <div className={`${classes.arguments} ${classes.jsonShown}`}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600}>
              The call's arguments
            </Text>
            {!closed && (
              <Button
                size="compact-sm"
                variant="default"
                onClick={() => {
                  change(argumentsStart);
                  box.current?.focus();
                }}
              >
                Start from the arguments
              </Button>
            )}
          </Group>
          <JsonBlock value={question.args} label="The call's arguments" />
        </div>
      )}
      <div className={classes.footer}>
        <DraftStatus
          draft={draft}
          dirty={text !== baseline}
          onDiscard={() => {
            draft.discard();
            setUnsaved(null);
            setFieldError(null);
          }}
        />
        <Group gap="xs">
          {near && kind === 'single' && (
            <Text size="xs" c={text.length > MAX_ANSWER_LENGTH ? 'red.8' : 'dimmed'}>
              {text.length.toLocaleString('en')} / {MAX_ANSWER_LENGTH.toLocaleString('en')}
            </Text>
          )}
          {closed && text && (
            <CopyButton value={kind === 'single' ? text : summarizeAnswers(prompts, answers)}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy text'}
                </Button>
              )}
            </CopyButton>
          )}
          {!closed && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => setAdvanced((open) => !open)}
              aria-expanded={advanced}
              aria-controls={advancedId}
            >
              {advanced ? 'Hide advanced' : 'Advanced'}
            </Anchor>
          )}
        </Group>
      </div>
      {advanced && !closed && (
        <div id={advancedId}>
          <TextInput
            label="Answer valid for (seconds)"
            description={
              parseValidFor(validFor).ok && validFor.trim()
                ? `How long later agent runs may reuse this answer: ${describeSeconds(Number(validFor))}.`
                : 'How long later agent runs may reuse this answer. Empty means the server default (30 days).'
            }
            inputMode="numeric"
            value={validFor}
            onChange={(event) => {
              setValidFor(event.currentTarget.value);
              setValidForError(null);
            }}
            error={validForError}
            maw={360}
          />
        </div>
      )}
      {mode === 'json' && (
        <Modal
          opened={confirming !== null}
          onClose={() => setConfirming(null)}
          title="Send this result?"
          centered
          zIndex={400}
        >
          <Stack gap="md">
            <Text size="sm">
              The {question.toolName} tool receives this result and its call is closed. A result
              cannot be changed once it is sent.
            </Text>
            {confirming && (
              <div className={classes.jsonShown}>
                <JsonBlock value={confirming.result} label="The result to send" />
              </div>
            )}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => setConfirming(null)} data-autofocus>
                Keep editing
              </Button>
              <Button onClick={sendResult}>Send result</Button>
            </Group>
          </Stack>
        </Modal>
      )}
      {offChoices !== null && !closed && (
        <OffChoicesAsk
          answer={offChoices}
          choices={formats}
          onSend={() => send(true)}
          onKeep={() => {
            setOffChoices(null);
            box.current?.focus();
          }}
        />
      )}
      {serverError !== null && (
        <ActionError error={serverError} onRetry={closed ? undefined : () => submit()} />
      )}
      {waiting && retryAt !== null && <RetryWait until={retryAt} />}
      {!closed && (
        <Group gap="xs">
          <Button
            type="submit"
            loading={mutation.isPending}
            disabled={(busy && !mutation.isPending) || waiting}
          >
            {submitLabels[mode]}
          </Button>
          {extraActions}
          <Text size="xs" c="dimmed" className={classes.hint}>
            Ctrl/⌘ + Enter sends
          </Text>
        </Group>
      )}
    </form>
  );
}
