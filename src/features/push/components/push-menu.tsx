import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import { ActionIcon, Popover, Text } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { IconChevronDown } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { LoadBoundary, lazyPart } from '@/components/load-boundary';
import { pushSupported } from '../utils/device';

const DeviceSettings = lazyPart(() => import('./device-settings').then((m) => m.DeviceSettings));
const loadSettings = () => void DeviceSettings.load().catch(() => {});

/** What public/push-sw.js posts to an open inbox tab when its notification is clicked. */
const OPEN_MESSAGE = 'questions-inbox:open';

/**
 * Where a click on a notification goes when an inbox tab is open: this tab routes to the question
 * (keeping its state), told by the worker. `open` takes the path under the portal's address.
 */
function useOpenFromNotification(open: (path: string) => void) {
  useEffect(() => {
    if (!pushSupported()) return;
    const heard = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; href?: unknown } | null;
      if (data?.type !== OPEN_MESSAGE || typeof data.href !== 'string') return;
      const base = new URL('./', document.baseURI).href;
      if (!data.href.startsWith(base)) return;
      open(`/${data.href.slice(base.length)}`);
      // The worker waits for this; without it, it sends the whole tab to the question.
      event.ports[0]?.postMessage('opened');
    };
    navigator.serviceWorker.addEventListener('message', heard);
    return () => navigator.serviceWorker.removeEventListener('message', heard);
  }, [open]);
}

/**
 * Beside the bell: the notifications that reach this device when no inbox tab is open (Web Push
 * through the portal server), and what reaches it. Also routes this tab to a question whose
 * notification was clicked.
 */
export function PushMenu({ onOpenQuestion }: { onOpenQuestion: (path: string) => void }) {
  const [opened, setOpened] = useState(false);
  useOpenFromNotification(onOpenQuestion);
  // Escape closes it wherever the focus is (the browser's permission prompt can take it away).
  useWindowEvent('keydown', (event) => {
    if (opened && event.key === 'Escape') setOpened(false);
  });
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      onDismiss={() => setOpened(false)}
      position="bottom-end"
      width={340}
      withArrow
      trapFocus
      returnFocus
    >
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          aria-label="Notification options"
          title="Notification options"
          aria-expanded={opened}
          aria-haspopup="dialog"
          // Its fields' code comes as the pointer or the focus reaches the button.
          onPointerEnter={loadSettings}
          onFocus={loadSettings}
          onClick={() => setOpened((open) => !open)}
        >
          <IconChevronDown size={14} aria-hidden />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown role="dialog">
        {opened && (
          <LoadBoundary
            what="Notification options"
            parts={[DeviceSettings]}
            placeholder={<Text size="sm">Checking what this portal offers…</Text>}
          >
            <DeviceSettings />
          </LoadBoundary>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

export default PushMenu;
