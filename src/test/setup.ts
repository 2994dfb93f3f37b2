import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { act, cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { closeMockApi, resetMockApi, startMockApi } from './mock-api';

// findBy/waitFor wait as the tests' own timeout does (vite.config.ts): 1 s locally, 5 s on CI, where
// a file's first toast waits for its lazily loaded host under two busy workers (it once took over 1 s).
configure({ asyncUtilTimeout: process.env.CI ? 5_000 : 1_000 });

// jsdom lacks these; Mantine needs them.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView = () => {};
// jsdom has window.scrollTo but not an element's (virtua's scrollToIndex calls it).
window.HTMLElement.prototype.scrollTo = () => {};
if (!document.scrollingElement) {
  // The virtualized list (virtua) scrolls the document's scrolling element.
  Object.defineProperty(document, 'scrollingElement', { value: document.documentElement });
}
if (!('fonts' in document)) {
  // Mantine's autosizing Textarea listens for web fonts loading.
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
}

beforeAll(() => startMockApi());
afterEach(() => {
  // Mantine keeps notifications in a module-level store: without this, later tests queue behind old ones.
  act(() => {
    notifications.clean();
    notifications.cleanQueue();
  });
  cleanup();
  resetMockApi();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(async () => {
  // A part's code the page began to download (the drawer, at idle) must arrive before this file's
  // page goes: the next file reuses this worker's modules (isolate: false in vite.config.ts), and
  // an import finishing after the teardown failed that next file.
  await vi.dynamicImportSettled();
  closeMockApi();
});
