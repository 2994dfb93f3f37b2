// The demo's state in IndexedDB, so the Service Worker can be stopped and started again (the
// browser does so whenever it is idle) without losing what the visitor did.

const DB_NAME = 'questions-inbox-demo';
const STORE = 'state';

export interface Saved {
  data: unknown;
  /** When the agent simulator last asked (epoch ms). */
  tickedAt: number;
}

let opened: Promise<IDBDatabase> | null = null;

function database(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  }).catch((error: unknown) => {
    opened = null;
    throw error;
  });
  return opened;
}

function done<T>(request: IDBRequest<T>, transaction: IDBTransaction): Promise<T> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

export async function loadState(name: string): Promise<Saved | undefined> {
  const db = await database();
  const transaction = db.transaction(STORE, 'readonly');
  const value = await done(transaction.objectStore(STORE).get(name), transaction);
  if (value && typeof value === 'object' && 'data' in value && 'tickedAt' in value) {
    return value as Saved;
  }
  return undefined;
}

export async function saveState(name: string, saved: Saved): Promise<void> {
  const db = await database();
  const transaction = db.transaction(STORE, 'readwrite');
  await done(transaction.objectStore(STORE).put(saved, name), transaction);
}

/** Any other value the worker keeps (the portal's trail and claims: demo/portal.ts). */
export async function loadValue(name: string): Promise<unknown> {
  const db = await database();
  const transaction = db.transaction(STORE, 'readonly');
  return done(transaction.objectStore(STORE).get(name), transaction);
}

export async function saveValue(name: string, value: unknown): Promise<void> {
  const db = await database();
  const transaction = db.transaction(STORE, 'readwrite');
  await done(transaction.objectStore(STORE).put(value, name), transaction);
}
