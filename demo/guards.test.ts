import { describe, expect, it } from 'vitest';
import { demoRefusal, type SeenRequest } from './guards';

const origin = 'https://demo.example';
function seen(init: Partial<SeenRequest> & { type?: string }): SeenRequest {
  const headers = new Headers(init.type ? { 'content-type': init.type } : {});
  return {
    method: 'POST',
    mode: 'cors',
    referrer: `${origin}/qi-demo/questions`,
    headers,
    ...init,
  };
}

describe('the demo worker’s cross-site rules', () => {
  it('refuses a form posted from another site, whatever the path and type', () => {
    for (const path of [
      '/__mock/questions',
      '/__mock/faults',
      '/api/pending_tool_calls/x/cancel',
    ]) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json']) {
        const refused = demoRefusal(
          seen({ mode: 'navigate', referrer: 'https://evil.example/', type }),
          path,
          origin,
        );
        expect(refused?.status, `${path} ${type}`).toBe(403);
      }
      expect(demoRefusal(seen({ mode: 'navigate', referrer: '' }), path, origin)?.status).toBe(403);
    }
  });

  it('refuses the content types a plain form sends, even from the demo’s own pages', () => {
    expect(demoRefusal(seen({ type: 'text/plain' }), '/__mock/questions', origin)?.status).toBe(
      415,
    );
    expect(
      demoRefusal(seen({ type: 'multipart/form-data; boundary=x' }), '/api/x', origin)?.status,
    ).toBe(415);
  });

  it('answers the portal’s own fetches, reads, and the sign-in form posted to itself', () => {
    expect(demoRefusal(seen({ type: 'application/json' }), '/__mock/questions', origin)).toBeNull();
    expect(
      demoRefusal(seen({ method: 'GET', mode: 'navigate', referrer: '' }), '/api/x', origin),
    ).toBeNull();
    expect(
      demoRefusal(
        seen({ mode: 'navigate', type: 'application/x-www-form-urlencoded' }),
        '/__mock/sign-in',
        origin,
      ),
    ).toBeNull();
    expect(
      demoRefusal(
        seen({ mode: 'navigate', referrer: 'https://evil.example/', type: 'text/plain' }),
        '/__mock/sign-in',
        origin,
      )?.status,
    ).toBe(403);
  });
});
