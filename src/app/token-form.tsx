import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import { Button, Checkbox, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { sourceLabel, sourcesNeedingKeys, useRuntimeConfig } from '@/config/runtime-config';
import { useShell } from '@/config/shell-context';
import { useTokens } from '@/config/token-store';
import { useSession } from '@/lib/session-store';

function checkKey(key: string, label: string): string | null {
  if (!key) return `Paste your ${label} API key.`;
  if (/\s/.test(key)) return 'An API key has no spaces; check that you copied only the key.';
  return null;
}

/**
 * `auth.mode: "token"`: the reviewer pastes an API key for each source that needs one and has
 * none yet (a key one server refused is asked for again alone), kept for this tab at most.
 */
export function TokenForm() {
  const { tokens } = useShell();
  const config = useRuntimeConfig();
  const held = useTokens(tokens);
  const { store: session } = useSession();
  const queryClient = useQueryClient();
  const wanted = sourcesNeedingKeys(config).filter((source) => !held[source.id]);
  const many = sourcesNeedingKeys(config).length > 1;
  const [values, setValues] = useState<Record<string, string>>({});
  const [remember, setRemember] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const names = wanted.map(sourceLabel);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const keys = Object.fromEntries(
      wanted.map((source) => [source.id, (values[source.id] ?? '').trim()]),
    );
    const found = Object.fromEntries(
      wanted.map((source) => [source.id, checkKey(keys[source.id] ?? '', sourceLabel(source))]),
    );
    setErrors(found);
    if (Object.values(found).some((error) => error !== null)) return;
    tokens.set(keys, { rememberInTab: remember });
    session.reset();
    void queryClient.invalidateQueries();
  };

  return (
    <Paper withBorder p="xl" maw={480} mx="auto" mt="xl" radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3">
            {wanted.length > 1 ? 'Sign in with your API keys' : 'Sign in with an API key'}
          </Title>
          <Text size="sm" c="dimmed">
            This portal calls {names.join(', ')} with your own API{' '}
            {wanted.length > 1 ? 'keys' : 'key'}. Each key is kept only in this browser tab and sent
            only to its own system.
          </Text>
          {wanted.map((source, index) => (
            <PasswordInput
              key={source.id}
              // One key: "API key", as before; several: each named after its system.
              label={many ? `${sourceLabel(source)} API key` : 'API key'}
              value={values[source.id] ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setValues((current) => ({ ...current, [source.id]: value }));
                setErrors((current) => ({ ...current, [source.id]: null }));
              }}
              error={errors[source.id]}
              autoComplete="off"
              data-autofocus={index === 0 || undefined}
            />
          ))}
          <Checkbox
            label={`Keep ${wanted.length > 1 ? 'them' : 'it'} for this tab (until the tab is closed)`}
            checked={remember}
            onChange={(event) => setRemember(event.currentTarget.checked)}
          />
          <Button type="submit">Continue</Button>
        </Stack>
      </form>
    </Paper>
  );
}
