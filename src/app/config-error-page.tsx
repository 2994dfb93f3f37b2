import { Alert, Code, List, Stack, Text, Title } from '@mantine/core';
import { AppMantineProvider } from './mantine-provider';

export function ConfigErrorPage({
  url,
  problem,
  issues,
}: {
  url: string;
  problem: string;
  issues: string[];
}) {
  return (
    <AppMantineProvider>
      <Stack component="main" maw={720} mx="auto" p="xl" gap="md">
        <Title order={1}>Questions Inbox cannot start</Title>
        <Alert color="red" title={problem} role="alert">
          <Stack gap="xs">
            {issues.length > 0 && (
              <List size="sm">
                {issues.map((issue) => (
                  <List.Item key={issue}>{issue}</List.Item>
                ))}
              </List>
            )}
            <Text size="sm">
              The portal reads its settings from <Code>{url}</Code>. Ask whoever deployed it to fix
              that file (the settings are described in the deployment guide), then reload this page.
            </Text>
          </Stack>
        </Alert>
      </Stack>
    </AppMantineProvider>
  );
}
