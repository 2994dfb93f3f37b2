// @vitest-environment-options {"url": "https://inbox.example.com/agents/inbox/questions"}
import { afterEach, describe, expect, it } from 'vitest';
import { writeBrowserReviewer } from './browser-reviewer';

const property = Object.getOwnPropertyDescriptor(
  Document.prototype,
  'cookie',
) as PropertyDescriptor;
const written: string[] = [];

afterEach(() => {
  written.length = 0;
  Object.defineProperty(document, 'cookie', property);
});

/** Records what the page writes to document.cookie, attributes and all, and lets it through. */
function recordCookies() {
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => property.get?.call(document),
    set: (value: string) => {
      written.push(value);
      property.set?.call(document, value);
    },
  });
}

describe('the name cookie', () => {
  it('is host-only, on /, and __Host- over HTTPS, under a base path too', () => {
    const base = document.createElement('base');
    base.href = '/agents/inbox/';
    document.head.append(base);
    recordCookies();
    writeBrowserReviewer('Ann B');
    expect(written).toHaveLength(1);
    const [pair, ...attributes] = (written[0] as string).split('; ');
    expect(pair).toBe('__Host-qi_reviewer=Ann%20B');
    expect(attributes).toContain('path=/');
    expect(attributes).toContain('Secure');
    expect(attributes.some((attribute) => /^domain=/i.test(attribute))).toBe(false);
    expect(document.cookie).toContain('__Host-qi_reviewer=Ann%20B');
    base.remove();
  });

  it('leaves out what the server would refuse: line breaks, NUL, direction controls', () => {
    expect(writeBrowserReviewer('\u202eAnn\n\u0000B\u2066')).toBe('AnnB');
    expect(writeBrowserReviewer('\u202e')).toBe('Reviewer');
  });
});
