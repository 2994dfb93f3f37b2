import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { TimeAgo } from '@/components/time-ago';
import { sourceLabel, useRuntimeConfig } from '@/config/runtime-config';
import { isApiError } from '@/lib/api-client';
import { useDeleteSnippet, useEditSnippet, useSaveSnippet } from '../api/mutations';
import { snippetQueries } from '../api/queries';
import type { Snippet } from '../api/schemas';
import { failureText, SnippetForm } from './snippet-form';

const PREVIEW = 280;

/**
 * One snippet being edited, apart from the list: the list may lose it (deleted meanwhile) or bring a
 * colleague's newer version while the reviewer types, and what they typed stays either way.
 */
function EditSnippet({
  start,
  current,
  onDone,
}: {
  /** The snippet as the reviewer opened it. */
  start: Snippet;
  /** The list's version of it now; null once it is gone from the list. */
  current: Snippet | null;
  onDone: () => void;
}) {
  const edit = useEditSnippet();
  const save = useSaveSnippet();
  const titleId = useId();
  // The version the next save changes: the one the reviewer has seen. A refusal shows them the
  // colleague's version; saving again then puts theirs over it, knowingly.
  const [base, setBase] = useState(start);
  const refused = isApiError(edit.error) && edit.error.status === 409;
  const theirs = refused && current && current.version !== base.version ? current : null;
  const gone = current === null || (isApiError(edit.error) && edit.error.status === 404);
  return (
    <section aria-labelledby={titleId}>
      <Title order={3} size="h6" id={titleId} mb="xs">
        Edit “{start.title}”
      </Title>
      {gone && (
        <Alert color="orange" title="Deleted meanwhile" mb="sm" role="alert">
          Someone deleted this snippet while you were editing it. Your text is kept below: Save as a
          new snippet keeps it for the team.
        </Alert>
      )}
      <SnippetForm
        initial={{ title: start.title, text: start.body, tag: start.tag }}
        tagChoices={null}
        submitLabel={gone ? 'Save as a new snippet' : 'Save changes'}
        pending={edit.isPending || save.isPending}
        error={gone ? save.error : edit.error}
        note={
          theirs && (
            <>
              {theirs.updatedByName ?? theirs.updatedBy}’s version: “{theirs.title}”, “
              {theirs.body.length > PREVIEW ? `${theirs.body.slice(0, PREVIEW - 1)}…` : theirs.body}
              ”. Save changes again to put yours over it.
            </>
          )
        }
        onCancel={onDone}
        onSubmit={(draft) => {
          if (gone) {
            save.mutate({ sourceId: start.sourceId, draft }, { onSuccess: onDone });
            return;
          }
          if (theirs) setBase(theirs);
          edit.mutate({ snippet: theirs ?? base, draft }, { onSuccess: onDone });
        }}
      />
    </section>
  );
}

function SnippetEntry({ snippet, onEdit }: { snippet: Snippet; onEdit: () => void }) {
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteSnippet();
  const titleId = useId();
  const who = snippet.updatedByName ?? snippet.updatedBy;
  return (
    <Paper withBorder p="sm" component="li" aria-labelledby={titleId}>
      <Stack gap={4}>
        <Group gap="xs" justify="space-between" wrap="nowrap" align="start">
          <Text fw={600} id={titleId} style={{ overflowWrap: 'anywhere' }}>
            {snippet.title}
          </Text>
          {snippet.tag && (
            <Badge variant="light" color="gray" radius="sm" tt="none" style={{ flexShrink: 0 }}>
              {snippet.tag}
            </Badge>
          )}
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} dir="auto">
          {snippet.body.length > PREVIEW ? `${snippet.body.slice(0, PREVIEW - 1)}…` : snippet.body}
        </Text>
        <Text size="xs" c="dimmed">
          {snippet.version > 1 ? 'Changed' : 'Saved'} by {who},{' '}
          <TimeAgo at={Date.parse(snippet.updatedAt)} />
        </Text>
        {deleting ? (
          <Stack gap="xs" role="alertdialog" aria-label={`Delete “${snippet.title}”?`}>
            <Text size="sm">
              Delete “{snippet.title}” for everyone on the team? The Activity page keeps its text.
            </Text>
            {remove.error !== null && (
              <Alert color="red" title="Not deleted" role="alert">
                {failureText(remove.error)}
              </Alert>
            )}
            <Group gap="xs">
              <Button
                size="compact-sm"
                color="red"
                loading={remove.isPending}
                onClick={() => remove.mutate(snippet)}
              >
                Delete
              </Button>
              <Button
                size="compact-sm"
                variant="default"
                data-autofocus
                onClick={() => {
                  remove.reset();
                  setDeleting(false);
                }}
              >
                Keep it
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group gap="xs">
            <Button
              size="compact-sm"
              variant="default"
              aria-label={`Edit “${snippet.title}”`}
              onClick={onEdit}
            >
              Edit
            </Button>
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              aria-label={`Delete “${snippet.title}”`}
              onClick={() => setDeleting(true)}
            >
              Delete
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** "Manage snippets": one system's snippets (the question's first), each with Edit and Delete. */
export function ManageSnippets({ sourceId, onClose }: { sourceId: string; onClose: () => void }) {
  const { sources } = useRuntimeConfig();
  const [shown, setShown] = useState(sourceId);
  const [editing, setEditing] = useState<Snippet | null>(null);
  const list = useQuery(snippetQueries.list(shown));
  const source = sources.find((candidate) => candidate.id === shown);
  const name = source ? sourceLabel(source) : shown;
  const snippets = list.data?.snippets ?? [];
  return (
    <Modal
      opened
      onClose={onClose}
      title="Manage snippets"
      centered
      zIndex={400}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      // A click beside it must not throw away what is typed in it.
      closeOnClickOutside={false}
    >
      <Stack gap="sm">
        {sources.length > 1 && !editing && (
          <NativeSelect
            label="System"
            value={shown}
            onChange={(event) => setShown(event.currentTarget.value)}
            data={sources.map((candidate) => ({
              value: candidate.id,
              label: sourceLabel(candidate),
            }))}
          />
        )}
        {editing ? (
          <EditSnippet
            start={editing}
            current={
              list.data ? (snippets.find((snippet) => snippet.id === editing.id) ?? null) : editing
            }
            onDone={() => setEditing(null)}
          />
        ) : list.data ? (
          snippets.length === 0 ? (
            <Text size="sm">
              No snippets for {name} yet. In the answer box of a {name} question, Save as snippet
              adds one.
            </Text>
          ) : (
            <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
              {snippets.map((snippet) => (
                <SnippetEntry
                  key={snippet.id}
                  snippet={snippet}
                  onEdit={() => setEditing(snippet)}
                />
              ))}
            </Stack>
          )
        ) : list.error ? (
          <Alert color="red" title="The snippets could not be read" role="alert">
            <Stack gap="xs" align="start">
              <Text size="sm">{failureText(list.error)}</Text>
              <Button size="compact-sm" variant="light" onClick={() => void list.refetch()}>
                Retry
              </Button>
            </Stack>
          </Alert>
        ) : list.data === null ? (
          <Text size="sm">This deployment has no portal server to keep the team's snippets.</Text>
        ) : (
          <Text size="sm">Loading the snippets…</Text>
        )}
        {list.data && (
          <Text size="xs" c="dimmed">
            The portal keeps {list.data.total.toLocaleString('en')} of at most{' '}
            {list.data.max.toLocaleString('en')} snippets, for all its systems.
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
