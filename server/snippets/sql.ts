// The team's snippets as the portal server keeps them: the routes are ./core.ts (the static
// demo's Service Worker runs them too); here snippets and the trail live in the portal's database.

import { answerHashKey } from '../audit/queries';
import { sqlTrail } from '../audit/sql';
import type { Db } from '../db/engine';
import { createSnippets as createSnippetsCore, type Snippets, type SnippetsOptions } from './core';
import {
  countSnippets,
  createSnippet,
  getSnippet,
  listSnippets,
  removeSnippet,
  updateSnippet,
} from './queries';
import type { SnippetStore } from './types';

export interface SqlSnippetsOptions extends Omit<SnippetsOptions, 'store' | 'trail' | 'hashKey'> {
  db: Db;
  /** AUDIT_HASH_KEY; without it the key the database keeps for this deployment. */
  hashKey?: string | null;
}

/** Snippets in the portal's database (embedded PostgreSQL, or DATABASE_URL's). */
export function sqlSnippets(db: Db): SnippetStore {
  return {
    list: (sourceId) => listSnippets(db, sourceId),
    count: () => countSnippets(db),
    get: (id) => getSnippet(db, id),
    create: (snippet, max) => createSnippet(db, snippet, max),
    update: (id, version, text, reviewer) => updateSnippet(db, id, version, text, reviewer),
    remove: (id, version) => removeSnippet(db, id, version),
  };
}

export function createSnippets(options: SqlSnippetsOptions): Snippets {
  const { db, hashKey, ...rest } = options;
  let key: Promise<Uint8Array<ArrayBuffer>> | null = null;
  const loadKey = () => {
    key ??= hashKey ? Promise.resolve(new TextEncoder().encode(hashKey)) : answerHashKey(db);
    // A failed read is tried again on the next change, not remembered.
    key.catch(() => {
      key = null;
    });
    return key;
  };
  return createSnippetsCore({
    ...rest,
    store: sqlSnippets(db),
    trail: sqlTrail(db),
    hashKey: loadKey,
  });
}
