import { Alert, List, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { UnreadableRecord } from '../../api/schemas';
import { truncateText } from '../../utils/text';
import { unreadableTitle } from './unreadable-title';

/** Records the server sent that failed the schema: flagged, so nothing disappears unseen. */
export function UnreadableRecords({ records }: { records: UnreadableRecord[] }) {
  if (records.length === 0) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={unreadableTitle(records.length)}
      m="sm"
      role="note"
      data-testid="unreadable-records"
    >
      <Text size="sm" mb={4}>
        The server sent {records.length === 1 ? 'a record' : 'records'} in an unexpected shape. The
        rest of the list is fine; tell whoever runs the agent platform.
      </Text>
      <List size="sm">
        {records.map((record) => (
          <List.Item key={`${record.index}-${record.id}`}>
            <Text span ff="monospace" size="sm">
              {record.id ? truncateText(record.id, 80) : `record #${record.index + 1}`}
            </Text>
            : {truncateText(record.problems.join('; '), 300)}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
