import { VERTESIA_API_VERSION } from '../mock/vertesia/app';
import type { ConfigSource, MountedSource } from './portal';

type Backend = Pick<MountedSource, 'mock' | 'upstream'>;

/**
 * Reflexio, Vertesia and Bilby as this server serves them (`npm start`, the bench): Vertesia and
 * Bilby each under its own path, by its mock or its real server, and the `sources` config.json
 * gets for all three.
 */
export function servedSystems(backends: {
  vertesia: Backend;
  bilby: Backend;
  bilbyOrganizationId?: string;
}): { mounted: MountedSource[]; config: ConfigSource[] } {
  const organizationId = backends.bilbyOrganizationId;
  return {
    mounted: [
      { prefix: 'vertesia', name: 'Vertesia', ...backends.vertesia },
      { prefix: 'bilby', name: 'Bilby', ...backends.bilby },
    ],
    config: [
      { id: 'reflexio', kind: 'reflexio', apiBaseUrl: 'api' },
      {
        id: 'vertesia',
        kind: 'vertesia',
        apiBaseUrl: 'vertesia/api/v1',
        apiVersion: VERTESIA_API_VERSION,
      },
      {
        id: 'bilby',
        kind: 'bilby',
        apiBaseUrl: 'bilby/api/v1',
        ...(organizationId ? { organizationId } : {}),
      },
    ],
  };
}
