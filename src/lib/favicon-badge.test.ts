import { afterEach, describe, expect, it } from 'vitest';
import { faviconWithBadge, setFaviconBadge } from './favicon-badge';

describe('setFaviconBadge', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('draws the count on the icon, red when urgent, and gives the original back at 0', () => {
    document.head.innerHTML = '<link rel="icon" type="image/svg+xml" href="./favicon.svg" />';
    const link = document.querySelector('link[rel="icon"]') as HTMLLinkElement;
    setFaviconBadge(3, false);
    const calm = decodeURIComponent(link.getAttribute('href') ?? '');
    expect(calm).toMatch(/^data:image\/svg\+xml,<svg/);
    expect(calm).toContain('>3</text>');
    expect(calm).not.toContain('#c92a2a');
    setFaviconBadge(120, true);
    const urgent = decodeURIComponent(link.getAttribute('href') ?? '');
    expect(urgent).toContain('>99+</text>');
    expect(urgent).toContain('#c92a2a');
    expect(link.dataset.badge).toBe('120 urgent');
    setFaviconBadge(0, false);
    expect(link.getAttribute('href')).toBe('./favicon.svg');
  });

  it('is an image the CSP allows (data:) and parses as SVG', () => {
    const svg = decodeURIComponent(faviconWithBadge(7, true).replace('data:image/svg+xml,', ''));
    const parsed = new DOMParser().parseFromString(svg, 'image/svg+xml');
    expect(parsed.querySelector('parsererror')).toBeNull();
    expect(parsed.querySelector('text')?.textContent).toBe('7');
  });
});
