// Real receivers for the notification tests (and bench/notify-delivery.ts): an HTTP server on
// loopback that checks each request's Standard Webhooks signature with the library's own verifier
// (and refuses what does not verify), and that can be taken "down" (503) and brought back; and a
// push device that decrypts what a push service hands it with its own keys.
import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  body: {
    type: string;
    data: {
      title: string;
      url: string | null;
      count: number;
      route: string;
      questions: { id: string; asked: string; url: string | null }[];
    };
  };
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** Requests refused: a signature that does not verify. */
  refused: number;
  /** Requests answered 503 while down. */
  turnedAway: number;
  down: boolean;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  secret: string,
  /** Told of each request that verified, as it is accepted (the bench times it). */
  onReceived?: (received: Received) => void,
): Promise<WebhookReceiver> {
  const verifier = new Webhook(secret);
  const state = { received: [] as Received[], refused: 0, turnedAway: 0, down: false };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (state.down) {
        state.turnedAway += 1;
        response.writeHead(503).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
        );
        const payload = verifier.verify(body, headers) as Received['body'];
        const received = { id: String(request.headers['webhook-id']), body: payload };
        state.received.push(received);
        onReceived?.(received);
        response.writeHead(204).end();
      } catch {
        state.refused += 1;
        response.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    get received() {
      return state.received;
    },
    get refused() {
      return state.refused;
    },
    get turnedAway() {
      return state.turnedAway;
    },
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const TEST_SECRET = `whsec_${Buffer.from('a test secret of 32 bytes, ok!!!').toString('base64')}`;

/** The `receivers:` part of a notifications file: one signed webhook per name. */
export function receiversYaml(hooks: Record<string, { url: string }>): string {
  const lines = Object.entries(hooks).flatMap(([name, hook]) => [
    `  - name: ${name}`,
    `    webhook: { url: "${hook.url}", secret: "${TEST_SECRET}" }`,
  ]);
  return ['receivers:', ...lines].join('\n');
}

/** Notification settings for tests: a file, links under an example PUBLIC_URL. */
export const TEST_NOTIFY_SETTINGS = {
  configFile: 'notify.yaml',
  webhookUrl: null,
  webhookSecret: null,
  smtpUrl: null,
  emailTo: [] as string[],
  publicUrl: 'https://inbox.example.com/portal/' as string | null,
};

type MockApp = { fetch: (request: Request) => Response | Promise<Response> };

/** The Reflexio mock as a watched system, reached in-process. */
export function reflexioSystem(app: MockApp) {
  return {
    id: 'reflexio',
    kind: 'reflexio' as const,
    name: 'Reflexio',
    fetch: (path: string, headers?: Record<string, string>) =>
      Promise.resolve(app.fetch(new Request(`http://mock${path}`, { headers }))),
  };
}

/** Asks a question of the Reflexio mock (its control route); returns its id. */
export async function askReflexio(
  app: MockApp,
  question: string,
  agent: string,
  expiresInSeconds = 3600,
): Promise<string> {
  const response = await app.fetch(
    new Request('http://mock/__mock/questions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question, user_id: agent, expires_in_seconds: expiresInSeconds }),
    }),
  );
  if (!response.ok) throw new Error(`ask: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { call: { id: string } }).call.id;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

/** A device: its P-256 key pair and auth secret, as a browser makes them for a subscription. */
export function pushDevice(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    subscription: {
      endpoint,
      keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) },
    },
    /** RFC 8291 §3.4 and RFC 8188: what the browser does with a push message's body. */
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const idLength = body.readUInt8(20);
      const senderKey = body.subarray(21, 21 + idLength);
      const cipherText = body.subarray(21 + idLength);
      const secret = ecdh.computeSecret(senderKey);
      const keyInfo = Buffer.concat([
        Buffer.from('WebPush: info\0'),
        ecdh.getPublicKey(),
        senderKey,
      ]);
      const ikm = Buffer.from(hkdfSync('sha256', secret, auth, keyInfo, 32));
      const cek = Buffer.from(
        hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16),
      );
      const nonce = Buffer.from(
        hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12),
      );
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(cipherText.subarray(cipherText.length - 16));
      const padded = Buffer.concat([
        decipher.update(cipherText.subarray(0, cipherText.length - 16)),
        decipher.final(),
      ]);
      return padded.subarray(0, padded.lastIndexOf(2)).toString('utf8');
    },
  };
}
