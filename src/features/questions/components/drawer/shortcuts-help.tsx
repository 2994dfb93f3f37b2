import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Table.layer.css';
import '@mantine/core/styles/Kbd.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import { Kbd, Modal, Switch, Table, Text } from '@mantine/core';
import { useLiveLists } from '@/config/live-lists';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useSingleKeyShortcuts } from '../../hooks/use-shortcuts';

/**
 * How the list stays fresh, in one sentence: pushed by the portal server, which reads each system
 * itself, or read by this page every so often (no portal server, or a system whose key the
 * browser holds).
 */
export function FreshnessNote() {
  const live = useLiveLists();
  const { sources, pollIntervalMs } = useRuntimeConfig();
  const watched = live ? sources.filter((source) => live.sources.includes(source.id)) : [];
  const text =
    live && watched.length === sources.length
      ? `Updates arrive live: the portal server reads each system every ${live.intervalSeconds} seconds and tells this page of every change.`
      : `This page reads each system itself every ${Math.round(pollIntervalMs / 1000)} seconds or so (less often while nothing changes)${
          live
            ? '; the portal server watches only some of them'
            : ': no portal server watches them for it'
        }.`;
  return (
    <Text size="sm" c="dimmed" mb="md" data-testid="freshness-note">
      {text}
    </Text>
  );
}

/** Every shortcut, in the order a reviewer meets them; `single` marks those one key types. */
export const shortcuts: Array<{ keys: string[]; what: string; single: boolean }> = [
  { keys: ['j'], what: 'Next question (in the list or the open question)', single: true },
  { keys: ['k'], what: 'Previous question', single: true },
  { keys: ['x'], what: 'Select or unselect the focused (or open) question', single: true },
  {
    keys: ['Enter'],
    what: 'Open the focused question; in a question, go to its answer box',
    single: false,
  },
  { keys: ['a'], what: 'Go to the answer box', single: true },
  { keys: ['e'], what: 'Edit the answer (an answered question)', single: true },
  {
    keys: ['1–9'],
    what: 'In a question: quick answer, or one of your recent answers on a free-text question: fills the answer box',
    single: true,
  },
  { keys: ['Ctrl', 'Enter'], what: 'Send the answer (⌘ Enter on a Mac)', single: false },
  { keys: ['n'], what: 'Mark the open question not applicable (asks first)', single: true },
  { keys: ['c'], what: 'Cancel the open question (asks first)', single: true },
  { keys: ['Esc'], what: 'Leave the answer box; again to close the question', single: false },
  {
    keys: ['/'],
    what: 'Search (Esc clears it, ↓ or Enter goes to the first result)',
    single: true,
  },
  { keys: ['r'], what: 'Refresh now', single: true },
  { keys: ['?'], what: 'This help', single: true },
];

export function ShortcutsHelp({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [enabled, setEnabled] = useSingleKeyShortcuts();
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" centered size="lg">
      <Switch
        mb="md"
        label="Single-key shortcuts (j, k, x, a, n, c, 1–9, /, r, ?)"
        description="Turn them off if you use speech input or often press keys by accident."
        checked={enabled}
        onChange={(event) => setEnabled(event.currentTarget.checked)}
      />
      <FreshnessNote />
      <Table>
        <Table.Tbody>
          {shortcuts.map(({ keys, what, single }) => (
            <Table.Tr key={what} data-off={(single && !enabled) || undefined}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {keys.map((key, i) => (
                  <span key={key}>
                    {i > 0 && ' + '}
                    <Kbd>{key}</Kbd>
                  </span>
                ))}
              </Table.Td>
              <Table.Td>
                {what}
                {single && !enabled && (
                  <Text span size="sm" c="dimmed">
                    {' '}
                    (off)
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <p>Shortcuts are off while the cursor is in a text field: press Esc to leave it.</p>
    </Modal>
  );
}
