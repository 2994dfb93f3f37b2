import { Anchor, Text } from '@mantine/core';
import { useSingleKeyShortcuts } from '../../hooks/use-shortcuts';

/** Under the list: how to find the shortcuts (a button too, for when single keys are off). */
export function ShortcutsHint({ onShow }: { onShow: () => void }) {
  const [enabled] = useSingleKeyShortcuts();
  return (
    <Text size="xs" c="dimmed" ta="center">
      {enabled ? (
        <>
          Press <kbd>?</kbd> for{' '}
        </>
      ) : (
        'Single-key shortcuts are off. '
      )}
      <Anchor component="button" type="button" size="xs" onClick={onShow}>
        keyboard shortcuts
      </Anchor>
    </Text>
  );
}
