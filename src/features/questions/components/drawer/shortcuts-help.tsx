import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Table.layer.css';
import '@mantine/core/styles/Kbd.layer.css';
import { Kbd, Modal, Table } from '@mantine/core';

const shortcuts: Array<[string[], string]> = [
  [['j'], 'Next question (in the list or the open question)'],
  [['k'], 'Previous question'],
  [['Enter'], 'Open the focused question'],
  [['Esc'], 'Close the question'],
  [['/'], 'Search'],
  [['r'], 'Refresh now'],
  [['Ctrl', 'Enter'], 'Send the answer (⌘ Enter on a Mac)'],
  [['?'], 'This help'],
];

export function ShortcutsHelp({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" centered>
      <Table>
        <Table.Tbody>
          {shortcuts.map(([keys, what]) => (
            <Table.Tr key={what}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {keys.map((key, i) => (
                  <span key={key}>
                    {i > 0 && ' + '}
                    <Kbd>{key}</Kbd>
                  </span>
                ))}
              </Table.Td>
              <Table.Td>{what}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <p>Shortcuts are off while you type in a field.</p>
    </Modal>
  );
}
