import {
  ActionIcon,
  Button,
  Group,
  Title,
  Tooltip,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { Link, Outlet } from 'react-router';
import classes from './app-layout.module.css';
import { StatusBanners } from './status-banners';

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

export function AppLayout() {
  return (
    <div className={classes.shell}>
      <Button component="a" href="#main" className={classes.skip} size="xs">
        Skip to the questions
      </Button>
      <header className={classes.header}>
        <Link to="/questions" className={classes.brand}>
          <img src="favicon.svg" alt="" className={classes.logo} />
          <Title order={1} size="h4">
            Questions Inbox
          </Title>
        </Link>
        <Group gap="xs" wrap="nowrap">
          <ColorSchemeToggle />
        </Group>
      </header>
      <main id="main" className={classes.main} tabIndex={-1}>
        <StatusBanners />
        <Outlet />
      </main>
    </div>
  );
}
