import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { isApiError } from '@/lib/api-client';
import { describeError } from '@/lib/describe-error';
import {
  SNIPPET_TAG_MAX,
  SNIPPET_TEXT_MAX,
  SNIPPET_TITLE_MAX,
  type SnippetDraft,
} from '../api/schemas';

/** What a reviewer is told of a failed save: the server's own words where it sent any. */
export function failureText(error: unknown): string {
  if (isApiError(error) && error.detail) return error.detail;
  return describeError(error).message;
}

/** Why a draft cannot go yet, per field (the server checks the same). */
export function checkDraft(draft: SnippetDraft): { title?: string; text?: string; tag?: string } {
  const problems: { title?: string; text?: string; tag?: string } = {};
  const title = draft.title.trim();
  if (!title) problems.title = 'Give it a title: it names the snippet in the list.';
  else if (title.length > SNIPPET_TITLE_MAX)
    problems.title = `At most ${SNIPPET_TITLE_MAX} characters (${title.length} now).`;
  else if (/[\n\r]/.test(title)) problems.title = 'One line only.';
  if (!draft.text.trim()) problems.text = 'The text is empty: it is what goes into the answer.';
  else if (draft.text.length > SNIPPET_TEXT_MAX)
    problems.text = `At most ${SNIPPET_TEXT_MAX.toLocaleString('en')} characters (${draft.text.length.toLocaleString('en')} now): shorten it.`;
  if ((draft.tag ?? '').length > SNIPPET_TAG_MAX)
    problems.tag = `At most ${SNIPPET_TAG_MAX} characters.`;
  return problems;
}

/**
 * A snippet's title, text and tag, sent with `submitLabel`. What is typed stays in the form until
 * it is saved: a refusal (a title taken, a colleague's change, the cap) is said above the buttons.
 */
export function SnippetForm({
  initial,
  tagChoices,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
  note,
}: {
  initial: SnippetDraft;
  /** The tags to choose from (the question's); null: any tag may be typed. */
  tagChoices: readonly string[] | null;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (draft: SnippetDraft) => void;
  onCancel: () => void;
  /** Said under the fields (what the snippet is for). */
  note?: ReactNode;
}) {
  const [title, setTitle] = useState(initial.title);
  const [text, setText] = useState(initial.text);
  const [tag, setTag] = useState(initial.tag ?? '');
  const [problems, setProblems] = useState<ReturnType<typeof checkDraft>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The dialog is drawn outside the answer form but sits inside it in React's tree, where a
    // submit would go on up to the answer form and send the answer.
    event.stopPropagation();
    const draft = { title: title.trim(), text, tag: tag.trim() || null };
    const found = checkDraft(draft);
    setProblems(found);
    if (Object.keys(found).length === 0) onSubmit(draft);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Title"
          description="How the team finds it in the list"
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
          error={problems.title}
          maxLength={SNIPPET_TITLE_MAX + 20}
          data-autofocus
          required
        />
        <Textarea
          label="Text"
          description="What goes into the answer box"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={problems.text}
          autosize
          minRows={3}
          maxRows={12}
          dir="auto"
          required
        />
        {tagChoices === null ? (
          <TextInput
            label="Tag (optional)"
            description="Offered first on questions with this tag"
            value={tag}
            onChange={(event) => setTag(event.currentTarget.value)}
            error={problems.tag}
          />
        ) : (
          tagChoices.length > 0 && (
            <NativeSelect
              label="Offer it first on questions tagged"
              value={tag}
              onChange={(event) => setTag(event.currentTarget.value)}
              data={[
                { value: '', label: 'Any tag' },
                ...tagChoices.map((choice) => ({ value: choice, label: choice })),
              ]}
            />
          )
        )}
        {note && (
          <Text size="sm" c="dimmed">
            {note}
          </Text>
        )}
        {error !== null && error !== undefined && (
          <Alert color="red" title="Not saved" role="alert">
            {failureText(error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
