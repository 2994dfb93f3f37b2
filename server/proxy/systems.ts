import { VERTESIA_API_VERSION } from '../../mock/vertesia/app';
import { type ConfigSource, type MountedSource, withSources } from '../http/portal';

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

/**
 * The systems the portal reads, id and kind, as the config.json this server serves names them:
 * its own `sources` when it has them, else the server's (withSources). Entries that are not a
 * source are left out: the portal itself refuses such a config.json.
 */
export function configuredSystems(
  config: unknown,
  served: readonly ConfigSource[],
): { id: string; kind: string }[] {
  const filled = withSources(config, [...served]);
  const sources =
    typeof filled === 'object' && filled !== null && !Array.isArray(filled)
      ? (filled as Record<string, unknown>).sources
      : served;
  if (!Array.isArray(sources)) return served.map(({ id, kind }) => ({ id, kind }));
  return sources.flatMap((source: unknown) => {
    const { id, kind } = (typeof source === 'object' && source !== null ? source : {}) as Record<
      string,
      unknown
    >;
    return typeof id === 'string' && typeof kind === 'string' ? [{ id, kind }] : [];
  });
}
