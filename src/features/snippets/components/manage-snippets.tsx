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
import { useDeleteSnippet, useEditSnippet } from '../api/mutations';
import { snippetQueries } from '../api/queries';
import type { Snippet } from '../api/schemas';
import { failureText, SnippetForm } from './snippet-form';

const PREVIEW = 280;

function SnippetEntry({ snippet }: { snippet: Snippet }) {
  const [mode, setMode] = useState<'view' | 'edit' | 'delete'>('view');
  const edit = useEditSnippet();
  const remove = useDeleteSnippet();
  const titleId = useId();
  const who = snippet.updatedByName ?? snippet.updatedBy;
  if (mode === 'edit') {
    return (
      <Paper withBorder p="sm" component="li" aria-labelledby={titleId}>
        <Title order={3} size="h6" id={titleId} mb="xs">
          Edit “{snippet.title}”
        </Title>
        <SnippetForm
          // The list may bring a colleague's newer version meanwhile: the form keeps what is typed,
          // and saving again then changes that version (the refusal above showed it).
          initial={{ title: snippet.title, text: snippet.body, tag: snippet.tag }}
          tagChoices={null}
          submitLabel="Save changes"
          pending={edit.isPending}
          error={edit.error}
          onCancel={() => {
            edit.reset();
            setMode('view');
          }}
          onSubmit={(draft) =>
            edit.mutate({ snippet, draft }, { onSuccess: () => setMode('view') })
          }
        />
      </Paper>
    );
  }
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
        {mode === 'delete' ? (
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
                  setMode('view');
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
              onClick={() => setMode('edit')}
            >
              Edit
            </Button>
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              aria-label={`Delete “${snippet.title}”`}
              onClick={() => setMode('delete')}
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
    >
      <Stack gap="sm">
        {sources.length > 1 && (
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
        {list.data ? (
          snippets.length === 0 ? (
            <Text size="sm">
              No snippets for {name} yet. In the answer box of a {name} question, Save as snippet
              adds one.
            </Text>
          ) : (
            <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
              {snippets.map((snippet) => (
                <SnippetEntry key={snippet.id} snippet={snippet} />
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
