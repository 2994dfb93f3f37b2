import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Pill.layer.css';
import '@mantine/core/styles/PillsInput.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Radio,
  Stack,
  Switch,
  TagsInput,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { sourceLabel, useRuntimeConfig } from '@/config/runtime-config';
import { describeError } from '@/lib/describe-error';
import { fetchPushInfo, forgetDevice, type PushChoice, saveDevice } from '../api/requests';
import {
  currentSubscription,
  PushSetupError,
  pushSupported,
  readChoice,
  subscribe,
  writeChoice,
} from '../utils/device';

// Loaded when the bell's menu is first opened (or pointed at): its fields (a tags input, radios,
// checkboxes, a switch) are no part of the first screen, where only the menu's button shows.

type Device = { state: 'off' } | { state: 'on'; endpoint: string };

const CHOICES: { kind: PushChoice['kind']; label: string }[] = [
  { kind: 'all', label: 'All new questions' },
  { kind: 'some', label: 'Some systems or tags' },
  { kind: 'claimed', label: 'Questions I claimed' },
  { kind: 'escalations', label: 'Escalations only (about to expire, unclaimed)' },
];

/** What the bell's menu holds: this device's notifications when the inbox is closed. */
export function DeviceSettings() {
  const config = useRuntimeConfig();
  const info = useQuery({
    queryKey: ['push', 'info'],
    queryFn: ({ signal }) => fetchPushInfo(signal),
    staleTime: 5 * 60_000,
    retry: 1,
  });
  const [device, setDevice] = useState<Device | null>(null);
  const [choice, setChoice] = useState<PushChoice>(readChoice);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const helpId = useId();

  useEffect(() => {
    let live = true;
    void currentSubscription()
      .catch(() => null)
      .then((subscription) => {
        if (live) {
          setDevice(
            subscription ? { state: 'on', endpoint: subscription.endpoint } : { state: 'off' },
          );
        }
      });
    return () => {
      live = false;
    };
  }, []);

  if (info.isPending) return <Text size="sm">Checking what this portal offers…</Text>;
  if (info.isError) {
    return (
      <Alert color="red" title="Could not ask the portal server">
        <Text size="sm">{describeError(info.error).message}</Text>
        <Button size="xs" mt="xs" variant="light" onClick={() => void info.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  if (info.data === null) {
    return (
      <Text size="sm">
        “When the inbox is closed” needs the portal server; this deployment has none, so only an
        open inbox tab can tell you of new questions.
      </Text>
    );
  }
  if (!pushSupported()) {
    return (
      <Text size="sm">
        This browser cannot receive notifications while the inbox is closed. (On an iPhone or iPad,
        add the portal to the Home Screen first, then open it from there.)
      </Text>
    );
  }
  const { publicKey, offered } = info.data;
  const on = device?.state === 'on';

  const keep = async (next: PushChoice, subscription: PushSubscriptionJSON) => {
    await saveDevice(subscription, next);
    writeChoice(next);
  };

  const turnOn = async () => {
    setBusy(true);
    setProblem(null);
    setSaved(null);
    let subscription: PushSubscription | null = null;
    try {
      subscription = await subscribe(publicKey);
      await keep(choice, subscription.toJSON());
      setDevice({ state: 'on', endpoint: subscription.endpoint });
      setSaved('On for this device.');
    } catch (error) {
      // A subscription the server does not know would never hear a word: let it go.
      if (subscription && !(error instanceof PushSetupError))
        await subscription.unsubscribe().catch(() => {});
      setProblem(
        error instanceof PushSetupError
          ? error.message
          : `The portal server did not keep this device: ${describeError(error).message}`,
      );
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    setBusy(true);
    setProblem(null);
    setSaved(null);
    try {
      const subscription = await currentSubscription();
      if (subscription) {
        await forgetDevice(subscription.endpoint);
        await subscription.unsubscribe();
      }
      setDevice({ state: 'off' });
      setSaved('Off for this device.');
    } catch (error) {
      setProblem(`Could not turn it off: ${describeError(error).message} Try again.`);
    } finally {
      setBusy(false);
    }
  };

  const choose = async (next: PushChoice) => {
    setChoice(next);
    setSaved(null);
    if (!on) {
      writeChoice(next);
      return;
    }
    setProblem(null);
    try {
      const subscription = await currentSubscription();
      if (!subscription) {
        setDevice({ state: 'off' });
        return;
      }
      await keep(next, subscription.toJSON());
      setSaved('Saved for this device.');
    } catch (error) {
      setProblem(`Your choice was not saved: ${describeError(error).message} Try again.`);
    }
  };

  const some = choice.kind === 'some' ? choice : { kind: 'some' as const, systems: [], tags: [] };
  return (
    <Stack gap="xs">
      {!offered && (
        <Text size="sm" c="dimmed">
          Your team’s operator sends nothing to devices yet (a <code>webpush</code> receiver in
          NOTIFY_CONFIG): you can turn this on, and it starts when they do.
        </Text>
      )}
      <Switch
        label="Also when the inbox is closed"
        aria-describedby={helpId}
        checked={on}
        // Not disabled while it works (the focus would drop to the page): a second press waits.
        disabled={device === null}
        aria-busy={busy || undefined}
        onChange={(event) => {
          if (busy) return;
          void (event.currentTarget.checked ? turnOn() : turnOff());
        }}
      />
      <Text id={helpId} size="xs" c="dimmed" mt={-4}>
        On this device, with no inbox tab open, from the portal server.
      </Text>
      <Radio.Group
        label="What reaches this device"
        value={choice.kind}
        onChange={(kind) =>
          void choose(kind === 'some' ? some : ({ kind } as Exclude<PushChoice, { kind: 'some' }>))
        }
      >
        <Stack gap={6} mt={6}>
          {CHOICES.map((item) => (
            <Radio key={item.kind} value={item.kind} label={item.label} />
          ))}
        </Stack>
      </Radio.Group>
      {choice.kind === 'some' && (
        <>
          <Checkbox.Group
            label="Systems"
            value={choice.systems}
            onChange={(systems) => void choose({ ...choice, systems })}
          >
            <Group gap="sm" mt={4}>
              {config.sources.map((source) => (
                <Checkbox key={source.id} value={source.id} label={sourceLabel(source)} />
              ))}
            </Group>
          </Checkbox.Group>
          <TagsInput
            label="Tags"
            description="Questions with any of these tags, from any system."
            value={choice.tags}
            maxTags={50}
            onChange={(tags) => void choose({ ...choice, tags: tags.map((t) => t.slice(0, 200)) })}
          />
        </>
      )}
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      {saved && (
        <Text size="sm" role="status">
          {saved}
        </Text>
      )}
    </Stack>
  );
}
