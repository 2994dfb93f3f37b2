import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type StoredValueOptions, useStoredValue } from './stored-value';

const KEY = 'qi:test-choice';
const options: StoredValueOptions<boolean> = {
  parse: (raw) => (raw === null ? true : raw === 'on'),
  serialize: (value) => (value ? 'on' : 'off'),
  serverValue: true,
};

function Choice({ label }: { label: string }) {
  const [on, setOn] = useStoredValue(KEY, options);
  return (
    <button type="button" onClick={() => setOn(!on)}>
      {label}: {on ? 'on' : 'off'}
    </button>
  );
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('a value stored in this browser', () => {
  it('is read without being written, and a change shows in every component that reads it', () => {
    localStorage.setItem(KEY, 'off');
    const written = vi.spyOn(Storage.prototype, 'setItem');
    render(
      <>
        <Choice label="one" />
        <Choice label="two" />
      </>,
    );
    expect(screen.getByText('one: off')).toBeTruthy();
    expect(screen.getByText('two: off')).toBeTruthy();
    expect(written).not.toHaveBeenCalled();

    act(() => screen.getByText('one: off').click());
    expect(screen.getByText('two: on')).toBeTruthy();
    expect(localStorage.getItem(KEY)).toBe('on');
  });

  it("follows another tab's change (the storage event)", () => {
    render(<Choice label="one" />);
    expect(screen.getByText('one: on')).toBeTruthy();
    act(() => {
      localStorage.setItem(KEY, 'off');
      window.dispatchEvent(new StorageEvent('storage', { key: KEY, newValue: 'off' }));
    });
    expect(screen.getByText('one: off')).toBeTruthy();
    act(() => {
      localStorage.clear();
      window.dispatchEvent(new StorageEvent('storage', { key: null }));
    });
    expect(screen.getByText('one: on')).toBeTruthy();
  });

  it('keeps a choice the browser refuses to store for this tab', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    render(<Choice label="one" />);
    act(() => screen.getByText('one: on').click());
    expect(screen.getByText('one: off')).toBeTruthy();
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it("is the server's value in the server's render, which cannot see the browser's storage", () => {
    localStorage.setItem(KEY, 'off');
    expect(renderToString(<Choice label="one" />)).toContain(': <!-- -->on<');
  });
});
