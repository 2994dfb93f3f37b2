/**
 * The tab's icon with a count on it: the portal's mark (public/favicon.svg) and a badge, red when
 * something is urgent. An SVG data: URL (the CSP's img-src allows data:); no badge for 0.
 */
export function faviconWithBadge(count: number, urgent: boolean): string {
  const label = count > 99 ? '99+' : String(count);
  const width = label.length > 2 ? 22 : label.length > 1 ? 18 : 15;
  const svg = [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">',
    '<rect width="32" height="32" rx="7" fill="#1864ab"/>',
    '<path d="M12.2 12.3a3.9 3.9 0 1 1 5.4 3.6c-1 .5-1.6 1.3-1.6 2.4v.9" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/>',
    '<circle cx="16" cy="23.2" r="1.7" fill="#fff"/>',
    `<rect x="${32 - width}" y="0" width="${width}" height="15" rx="7.5" fill="${urgent ? '#c92a2a' : '#e67700'}" stroke="#fff" stroke-width="1.5"/>`,
    `<text x="${32 - width / 2}" y="11.5" font-family="Arial,sans-serif" font-size="${label.length > 2 ? 9 : 11}" font-weight="700" fill="#fff" text-anchor="middle">${label}</text>`,
    '</svg>',
  ].join('');
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

const original = new WeakMap<HTMLLinkElement, string>();

/** Puts the badge on the page's icon (the first `<link rel="icon">`), or takes it off for 0. */
export function setFaviconBadge(count: number, urgent: boolean, doc: Document = document): void {
  const link = doc.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) return;
  if (!original.has(link)) original.set(link, link.getAttribute('href') ?? '');
  const href = count > 0 ? faviconWithBadge(count, urgent) : (original.get(link) as string);
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);
  link.dataset.badge = count > 0 ? `${count}${urgent ? ' urgent' : ''}` : '';
}
