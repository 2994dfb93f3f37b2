import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import { Button, Checkbox, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useShell } from '@/config/shell-context';
import { useSession } from '@/lib/session-store';

/** `auth.mode: "token"`: the reviewer pastes a Reflexio API key, kept for this tab at most. */
export function TokenForm() {
  const { tokens } = useShell();
  const { store: session } = useSession();
  const queryClient = useQueryClient();
  const [value, setValue] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const token = value.trim();
    if (!token) {
      setError('Paste your Reflexio API key.');
      return;
    }
    if (/\s/.test(token)) {
      setError('An API key has no spaces; check that you copied only the key.');
      return;
    }
    tokens.set(token, { rememberInTab: remember });
    session.reset();
    void queryClient.invalidateQueries();
  };

  return (
    <Paper withBorder p="xl" maw={480} mx="auto" mt="xl" radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3">
            Sign in with an API key
          </Title>
          <Text size="sm" c="dimmed">
            This portal calls Reflexio with your own API key. It is kept only in this browser tab
            and sent only to the Reflexio API.
          </Text>
          <PasswordInput
            label="API key"
            value={value}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              setError(null);
            }}
            error={error}
            autoComplete="off"
            data-autofocus
          />
          <Checkbox
            label="Keep it for this tab (until the tab is closed)"
            checked={remember}
            onChange={(event) => setRemember(event.currentTarget.checked)}
          />
          <Button type="submit">Continue</Button>
        </Stack>
      </form>
    </Paper>
  );
}
