// The team's saved answers in the answer box: the one module the app shell loads lazily for them.
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Menu.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Button, Group, Menu, Text } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useId, useMemo, useState } from 'react';
import { LoadBoundary, lazyPart } from '@/components/load-boundary';
import { sourceLabel, useRuntimeConfig } from '@/config/runtime-config';
import type { SnippetPlace } from '@/config/shell-context';
import { snippetQueries } from './api/queries';
import { failureText } from './components/snippet-form';
import { offeredSnippets } from './utils/offer';

// The dialogs come when first opened: most answers are sent without either.
const SaveSnippetDialog = lazyPart(() =>
  import('./components/save-snippet-dialog').then((m) => m.SaveSnippetDialog),
);
const ManageSnippets = lazyPart(() =>
  import('./components/manage-snippets').then((m) => m.ManageSnippets),
);

const PREVIEW = 90;
/** A compact button's height: the row's, from before the list comes (answer-form.module.css). */
const ROW = 'calc(1.625rem * var(--mantine-scale))';
/** Past this many, the menu has a search field. */
const SEARCH_FROM = 8;

/**
 * "Team snippets" (this system's saved answers, the question's tags first; one inserts its text
 * at the cursor, and never sends) and "Save as snippet". Nothing where no portal server keeps
 * them (nginx alone, a static host without the demo's worker): the same request says both.
 */
export function AnswerSnippets({ question, currentText, insert, disabled }: SnippetPlace) {
  const sourceId = question.source.id;
  const { sources } = useRuntimeConfig();
  const source = sources.find((candidate) => candidate.id === sourceId);
  const systemName = source ? sourceLabel(source) : sourceId;
  const list = useQuery(snippetQueries.list(sourceId));
  const [saving, setSaving] = useState<string | null>(null);
  const [managing, setManaging] = useState(false);
  const [search, setSearch] = useState('');
  const groups = useMemo(
    () => offeredSnippets(list.data?.snippets ?? [], { sourceId, tags: question.tags }, systemName),
    [list.data, sourceId, question.tags, systemName],
  );
  const count = groups.reduce((sum, group) => sum + group.snippets.length, 0);
  const wanted = search.trim().toLowerCase();
  const shown = wanted
    ? groups
        .map((group) => ({
          ...group,
          snippets: group.snippets.filter(
            (s) => s.title.toLowerCase().includes(wanted) || s.body.toLowerCase().includes(wanted),
          ),
        }))
        .filter((group) => group.snippets.length > 0)
    : groups;
  const previewId = useId();
  // No portal server here: nothing. Not known yet: the place is kept (the box below stays put).
  if (list.data === null) return null;
  if (list.data === undefined && !list.error) return <div aria-hidden style={{ minHeight: ROW }} />;

  return (
    <Group gap="xs" mih={ROW} wrap="wrap">
      <Menu
        position="bottom-start"
        width={340}
        zIndex={400}
        // A picked snippet puts the cursor in the answer box; Esc still goes back to the button.
        returnFocus={false}
        // Its focus placeholder is a focusable element no menu may hold (axe): the first item takes
        // the focus instead, opened by mouse too (Esc then closes the menu, not the question).
        withInitialFocusPlaceholder={false}
        menuItemTabIndex={0}
        onOpen={() => void list.refetch()}
        onClose={() => setSearch('')}
      >
        <Menu.Target>
          <Button
            size="compact-sm"
            variant="default"
            disabled={disabled}
            rightSection={<IconChevronDown size={14} aria-hidden />}
          >
            Team snippets
          </Button>
        </Menu.Target>
        <Menu.Dropdown
          mah={380}
          style={{ overflowY: 'auto' }}
          // Esc closes the menu; beside the list (split view) it would also close the question.
          onKeyDown={(event) => {
            if (event.key === 'Escape') event.preventDefault();
          }}
        >
          {count > SEARCH_FROM && (
            <Menu.Search
              placeholder="Find a snippet"
              aria-label="Find a snippet"
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
            />
          )}
          {list.error && !list.data ? (
            <>
              <Text size="sm" px="sm" py={6} maw={320} role="alert">
                The snippets could not be read: {failureText(list.error)}
              </Text>
              <Menu.Item closeMenuOnClick={false} onClick={() => void list.refetch()}>
                Retry
              </Menu.Item>
            </>
          ) : count === 0 ? (
            <Text size="sm" px="sm" py={6} maw={320}>
              No snippets for {systemName} questions yet: Save as snippet keeps what you type here
              for the whole team.
            </Text>
          ) : shown.length === 0 ? (
            <Text size="sm" px="sm" py={6}>
              No snippet matches “{search.trim()}”.
            </Text>
          ) : (
            shown.map((group) => (
              <Fragment key={group.label}>
                <Menu.Label>{group.label}</Menu.Label>
                {group.snippets.map((snippet) => (
                  <Menu.Item
                    key={snippet.id}
                    aria-label={snippet.title}
                    aria-describedby={`${previewId}-${snippet.id}`}
                    onClick={() => insert(snippet.body)}
                  >
                    <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {snippet.title}
                    </Text>
                    <Text
                      size="xs"
                      c="dimmed"
                      id={`${previewId}-${snippet.id}`}
                      lineClamp={2}
                      dir="auto"
                    >
                      {snippet.body.length > PREVIEW
                        ? `${snippet.body.slice(0, PREVIEW - 1)}…`
                        : snippet.body}
                    </Text>
                  </Menu.Item>
                ))}
              </Fragment>
            ))
          )}
          <Menu.Divider />
          <Menu.Item onClick={() => setManaging(true)}>Manage snippets</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Button
        size="compact-sm"
        variant="default"
        disabled={disabled}
        onClick={() => setSaving(currentText())}
      >
        Save as snippet
      </Button>
      {saving !== null && (
        <LoadBoundary what="Saving a snippet" parts={[SaveSnippetDialog]}>
          <SaveSnippetDialog
            sourceId={sourceId}
            systemName={systemName}
            tags={question.tags}
            text={saving}
            onClose={() => setSaving(null)}
          />
        </LoadBoundary>
      )}
      {managing && (
        <LoadBoundary what="Manage snippets" parts={[ManageSnippets]}>
          <ManageSnippets sourceId={sourceId} onClose={() => setManaging(false)} />
        </LoadBoundary>
      )}
    </Group>
  );
}
