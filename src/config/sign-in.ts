import type { RuntimeConfig } from './runtime-config';

/**
 * Where "Sign in again" goes. `auth.signInUrl` may hold `{returnTo}` for the current address;
 * otherwise the address is appended as `rd` (oauth2-proxy's name for it). Without a sign-in URL,
 * reloading the page lets the proxy send the reviewer to its own sign-in and back.
 */
export function signInAddress(config: RuntimeConfig, returnTo: string): string {
  const signInUrl = config.auth.signInUrl;
  if (!signInUrl) return returnTo;
  if (signInUrl.includes('{returnTo}'))
    return signInUrl.replaceAll('{returnTo}', encodeURIComponent(returnTo));
  const url = new URL(signInUrl, document.baseURI);
  url.searchParams.set('rd', returnTo);
  return url.toString();
}
