import {
  ActionIcon,
  Button,
  Group,
  Text,
  Title,
  Tooltip,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { Link, Outlet, useMatch } from 'react-router';
import { useRuntimeConfig } from '@/config/runtime-config';
import { useShell } from '@/config/shell-context';
import { useToken } from '@/config/token-store';
import classes from './app-layout.module.css';
import { StatusBanners } from './status-banners';
import { TokenForm } from './token-form';
import { useSignedInUser } from './use-signed-in-user';

function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <Tooltip label={`Switch to ${next} theme`}>
      <ActionIcon
        variant="default"
        size="lg"
        onClick={() => setColorScheme(next)}
        aria-label={`Switch to ${next} theme`}
      >
        {computed === 'dark' ? (
          <IconSun size={18} aria-hidden />
        ) : (
          <IconMoon size={18} aria-hidden />
        )}
      </ActionIcon>
    </Tooltip>
  );
}

function SignedInUser() {
  const name = useSignedInUser();
  if (!name) return null;
  return (
    <Text size="sm" c="dimmed" className={classes.user} title={name}>
      Signed in as {name}
    </Text>
  );
}

export function AppLayout() {
  const { embed, tokens } = useShell();
  const { auth } = useRuntimeConfig();
  const token = useToken(tokens);
  const needsToken = auth.mode === 'token' && !token;
  const questionOpen = useMatch('/questions/:id') !== null;
  return (
    // Behind an open question (a modal drawer) the page is inert: no focus, no screen reader, no clicks.
    <div
      className={classes.shell}
      data-embed={embed || undefined}
      inert={(questionOpen && !needsToken) || undefined}
    >
      <Button
        component="a"
        href="#main"
        className={classes.skip}
        size="xs"
        onClick={(event) => {
          // With <base href>, "#main" would point at the base URL and reload the app.
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to the questions
      </Button>
      {!embed && (
        <header className={classes.header}>
          <Link to="/questions" className={classes.brand}>
            <img src="favicon.svg" alt="" className={classes.logo} />
            <Title order={1} size="h4">
              Questions Inbox
            </Title>
          </Link>
          <Group gap="sm" wrap="nowrap" className={classes.tools}>
            <SignedInUser />
            <ColorSchemeToggle />
          </Group>
        </header>
      )}
      <main id="main" className={classes.main} tabIndex={-1}>
        {embed && (
          <Title order={1} className="visually-hidden">
            Questions Inbox
          </Title>
        )}
        <StatusBanners />
        {needsToken ? <TokenForm /> : <Outlet />}
      </main>
    </div>
  );
}
