/**
 * A `fetch` that hands each request to a mock app as the portal's server mounts it under
 * `prefix` (the prefix is taken off), so adapter tests go through the real fetch layer to the
 * real mock. The request is rebuilt field by field: under jsdom, `new Request(url, request)`
 * drops the headers.
 */
export function mountedFetch(
  app: { fetch: (request: Request) => Response | Promise<Response> },
  prefix: string,
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (!url.pathname.startsWith(`${prefix}/`)) {
      return new Response('not mounted here', { status: 404 });
    }
    url.pathname = url.pathname.slice(prefix.length);
    const body = request.method === 'GET' ? undefined : await request.text();
    return app.fetch(
      new Request(url, {
        method: request.method,
        headers: request.headers,
        ...(body === undefined ? {} : { body }),
      }),
    );
  };
}
