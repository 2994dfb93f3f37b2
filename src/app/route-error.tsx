import { Alert, Button, Code, Group, Stack, Text, Title } from '@mantine/core';

/** Last resort when a screen crashes: say so plainly; drafts live in the browser, so nothing is lost. */
export function RouteError({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Stack maw={720} mx="auto" p="xl" gap="md">
      <Title order={1} size="h2">
        Something broke on this screen
      </Title>
      <Alert color="red" variant="light" title="The portal hit an unexpected error" role="alert">
        <Stack gap="xs">
          <Text size="sm">
            Answers you were typing are saved as drafts in this browser and will be there after a
            reload.
          </Text>
          <Code block>{message.slice(0, 500)}</Code>
          <Group>
            <Button onClick={() => window.location.reload()}>Reload</Button>
            <Button variant="default" component="a" href={document.baseURI}>
              Go to the questions
            </Button>
          </Group>
        </Stack>
      </Alert>
    </Stack>
  );
}
