import { useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { useRuntimeConfig } from '@/config/runtime-config';
import { lazySchema } from '@/lib/lazy-schema';

// oauth2-proxy's /oauth2/userinfo shape, and the common OIDC names, all optional.
const userInfoSchema = lazySchema(() =>
  z.looseObject({
    preferredUsername: z.nullish(z.string()),
    preferred_username: z.nullish(z.string()),
    name: z.nullish(z.string()),
    user: z.nullish(z.string()),
    email: z.nullish(z.string()),
  }),
);

export function displayName(info: z.infer<ReturnType<typeof userInfoSchema>>): string | null {
  return (
    info.preferredUsername ||
    info.preferred_username ||
    info.name ||
    info.user ||
    info.email ||
    null
  );
}

/** Who the SSO proxy says is signed in, when `auth.userInfoUrl` is configured. */
export function useSignedInUser(): string | null {
  const { auth } = useRuntimeConfig();
  const url = auth.userInfoUrl ? new URL(auth.userInfoUrl, document.baseURI).toString() : null;
  const query = useQuery({
    queryKey: ['user-info', url],
    enabled: url !== null,
    staleTime: 5 * 60_000,
    retry: 1,
    queryFn: async ({ signal }) => {
      const response = await fetch(url as string, {
        credentials: 'same-origin',
        headers: { Accept: 'application/json' },
        redirect: 'manual',
        signal,
      });
      if (!response.ok) throw new Error(`user info answered HTTP ${response.status}`);
      return displayName(userInfoSchema().parse(await response.json()));
    },
  });
  return query.data ?? null;
}
