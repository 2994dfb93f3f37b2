import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createDesktopNotifications } from './desktop-notifications';

function fakeApi(permission: NotificationPermission, answer: NotificationPermission = 'granted') {
  const shown: Array<{ title: string; options?: NotificationOptions }> = [];
  const api = Object.assign(
    function fakeNotification(
      this: { onclick: unknown; close(): void },
      title: string,
      options?: NotificationOptions,
    ) {
      shown.push({ title, options });
      this.close = () => {};
    } as unknown as typeof Notification,
    {
      permission,
      requestPermission: vi.fn(async () => {
        api.permission = answer;
        return answer;
      }),
    },
  ) as typeof Notification & { permission: NotificationPermission };
  return { api, shown };
}

describe('desktop notifications', () => {
  beforeEach(() => localStorage.clear());

  it('asks the browser only when turned on, and remembers the choice', async () => {
    const { api, shown } = fakeApi('default');
    const store = createDesktopNotifications(api, localStorage);
    expect(store.state()).toBe('off');
    expect(store.show({ title: 'not yet' })).toBe(false);
    expect(api.requestPermission).not.toHaveBeenCalled();

    expect(await store.turnOn()).toBe('on');
    expect(api.requestPermission).toHaveBeenCalledOnce();
    expect(store.show({ title: '3 new questions' })).toBe(true);
    expect(shown.map((s) => s.title)).toEqual(['3 new questions']);
    // A new page (a reload) finds it on.
    expect(createDesktopNotifications(api, localStorage).state()).toBe('on');

    store.turnOff();
    expect(createDesktopNotifications(api, localStorage).state()).toBe('off');
  });

  it('says blocked when the browser refuses, and shows nothing', async () => {
    const { api, shown } = fakeApi('default', 'denied');
    const store = createDesktopNotifications(api, localStorage);
    expect(await store.turnOn()).toBe('blocked');
    expect(store.show({ title: 'never' })).toBe(false);
    expect(shown).toEqual([]);
  });

  it('stays off when the browser’s question is dismissed, and without the API', async () => {
    const { api } = fakeApi('default', 'default');
    expect(await createDesktopNotifications(api, localStorage).turnOn()).toBe('off');
    expect(createDesktopNotifications(null, localStorage).state()).toBe('unsupported');
  });
});
