// Web Push through a push-service stand-in that decrypts each payload with the subscription's own
// keys (RFC 8291, aes128gcm: ECDH with the sender's key in the header, HKDF, AES-128-GCM), as a
// browser's push service and the browser would; a subscription the service says is gone (410) is
// removed. The VAPID keys are made once and kept.
import { createCipheriv, createECDH, randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/engine';
import { withEmbeddedDb } from '../db/test-db';
import type { Notice } from './message';
import { PUSH_PATH, pushApi } from './push-api';
import { pushDevice as device } from './test-receivers';
import { saveSubscription, vapidKeys, webPushSender } from './web-push';

let db: Db;
withEmbeddedDb((opened) => {
  db = opened;
});
beforeEach(async () => {
  await db.query('DELETE FROM push_subscriptions');
});

const notice = (type: Notice['type'], sourceId = 'reflexio'): Notice => ({
  id: 'msg_7',
  type,
  title: 'New question from billing-agent (Reflexio)',
  url: 'https://inbox.example.com/questions/ptc_1',
  count: 1,
  route: 'phones',
  receiver: 'phones',
  questions: [
    {
      sourceId,
      system: 'Reflexio',
      id: 'ptc_1',
      agent: 'billing-agent',
      tool: null,
      tags: ['billing'],
      asked: 'Refund order 1042?',
      expiresAt: null,
      minutesLeft: 12,
      url: 'https://inbox.example.com/questions/ptc_1',
      choices: [],
    },
  ],
});

describe('Web Push', () => {
  it('encrypts for each chosen device, and removes a subscription the service says is gone', async () => {
    const phone = device('https://push.example.net/send/phone');
    const laptop = device('https://push.example.net/send/laptop');
    const gone = device('https://push.example.net/send/gone');
    await saveSubscription(db, 'ana@example.com', phone.subscription, { kind: 'all' });
    await saveSubscription(db, 'bo@example.com', laptop.subscription, { kind: 'escalations' });
    await saveSubscription(db, 'cy@example.com', gone.subscription, {
      kind: 'some',
      systems: [],
      tags: ['billing'],
    });
    const delivered: { endpoint: string; text: string; headers: Headers }[] = [];
    // The push service stand-in: the device it delivers to decrypts with its own keys.
    const standIn: typeof fetch = async (input, init) => {
      const endpoint = String(input);
      if (endpoint.endsWith('/gone')) return new Response(null, { status: 410 });
      const body = Buffer.from(init?.body as Uint8Array);
      const target = endpoint.endsWith('/phone') ? phone : laptop;
      delivered.push({ endpoint, text: target.decrypt(body), headers: new Headers(init?.headers) });
      return new Response(null, { status: 201 });
    };
    const send = webPushSender({ db, subject: 'https://inbox.example.com/', fetch: standIn });
    await send(notice('questions.new'));
    expect(delivered.map((d) => d.endpoint)).toEqual([phone.subscription.endpoint]);
    const payload = JSON.parse(delivered[0]?.text ?? '{}');
    expect(payload).toMatchObject({
      title: 'New question from billing-agent (Reflexio)',
      body: 'billing-agent on Reflexio · 12 min left: Refund order 1042?',
      url: 'https://inbox.example.com/questions/ptc_1',
      path: 'questions/ptc_1',
    });
    expect(delivered[0]?.headers.get('content-encoding')).toBe('aes128gcm');
    const keys = await vapidKeys(db);
    expect(delivered[0]?.headers.get('authorization')).toContain(`k=${keys.publicKey}`);
    // 410: the device is gone for good; its subscription no longer exists.
    const left = await db.query<{ endpoint: string }>(
      'SELECT endpoint FROM push_subscriptions ORDER BY endpoint',
    );
    expect(left.map((row) => row.endpoint)).toEqual([
      laptop.subscription.endpoint,
      phone.subscription.endpoint,
    ]);

    delivered.length = 0;
    await send(notice('questions.escalation'));
    expect(delivered.map((d) => d.endpoint).sort()).toEqual([
      laptop.subscription.endpoint,
      phone.subscription.endpoint,
    ]);
    // The keys are made once: asked again, the same.
    expect(await vapidKeys(db)).toEqual(keys);
  });

  it('a device that cannot be decrypted for is refused by the stand-in check', () => {
    const a = device('https://push.example.net/a');
    const salt = randomBytes(16);
    const sender = createECDH('prime256v1');
    sender.generateKeys();
    const header = Buffer.concat([salt, Buffer.from([0, 0, 16, 0, 65]), sender.getPublicKey()]);
    const junk = createCipheriv('aes-128-gcm', randomBytes(16), randomBytes(12));
    const body = Buffer.concat([
      header,
      junk.update(Buffer.from('x\u0002')),
      junk.final(),
      junk.getAuthTag(),
    ]);
    expect(() => a.decrypt(body)).toThrow();
  });
});

describe('a reviewer’s devices', () => {
  const call = (method: string, body?: unknown, who: string | null = 'ana@example.com') =>
    pushApi({ db, identity: { header: 'x-forwarded-email', nameHeader: null }, offered: true })(
      new Request(`http://portal${PUSH_PATH}`, {
        method,
        headers: who ? { 'x-forwarded-email': who } : {},
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      PUSH_PATH,
    );

  it('keeps a device under the signed-in reviewer, with their choice, and forgets it', async () => {
    expect((await call('GET', undefined, null))?.status).toBe(401);
    const key = (await (await call('GET'))?.json()) as { publicKey: string; offered: boolean };
    expect(key).toEqual({ publicKey: (await vapidKeys(db)).publicKey, offered: true });
    const phone = device('https://push.example.net/send/phone');
    const saved = await call('POST', {
      subscription: phone.subscription,
      choice: { kind: 'some', systems: ['reflexio'], tags: [] },
    });
    expect(saved?.status).toBe(200);
    const rows = await db.query<{ reviewer: string }>('SELECT reviewer FROM push_subscriptions');
    expect(rows).toEqual([{ reviewer: 'ana@example.com' }]);
    const plain = await call('POST', {
      subscription: { ...phone.subscription, endpoint: 'http://push.example.net/x' },
      choice: { kind: 'all' },
    });
    expect(plain?.status).toBe(400);
    // Another reviewer cannot forget Ana's device; Ana can.
    await call('DELETE', { endpoint: phone.subscription.endpoint }, 'bo@example.com');
    expect(await db.query('SELECT 1 FROM push_subscriptions')).toHaveLength(1);
    await call('DELETE', { endpoint: phone.subscription.endpoint });
    expect(await db.query('SELECT 1 FROM push_subscriptions')).toHaveLength(0);
  });
});
