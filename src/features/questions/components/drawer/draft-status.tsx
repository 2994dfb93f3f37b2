import { Button, Group, Text } from '@mantine/core';
import { TimeAgo } from '@/components/time-ago';
import type { DraftState } from '../../hooks/use-drafts';

export function DraftStatus({
  draft,
  dirty,
  onDiscard,
}: {
  draft: DraftState;
  dirty: boolean;
  onDiscard: () => void;
}) {
  if (!draft.draft || !dirty) return <span />;
  return (
    <Group gap={6} data-testid="draft-status">
      <Text size="xs" c={draft.saved ? 'dimmed' : 'red.8'} role="status">
        {draft.saved ? (
          <>
            Draft saved <TimeAgo at={draft.draft.savedAt} />
          </>
        ) : (
          'This browser refused to save the draft: copy your text before leaving'
        )}
      </Text>
      <Button size="compact-xs" variant="subtle" color="gray" onClick={onDiscard} type="button">
        Discard draft
      </Button>
    </Group>
  );
}
