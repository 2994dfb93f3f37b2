import { Alert, Code, List, Stack, Text, Title } from '@mantine/core';
import { AppMantineProvider } from './mantine-provider';

/** Why every request to the API was blocked: the address is on an origin the page may not reach. */
export function blockedApiIssue(apiRoot: URL): string {
  return `apiBaseUrl: ${apiRoot.href} is on another origin (${apiRoot.origin}), which this page's Content-Security-Policy (connect-src) does not allow. Use an address on the portal's own origin (the default "api", which the server proxies), or allow that origin in the policy.`;
}

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
