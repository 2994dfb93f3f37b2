import { describe, expect, it, vi } from 'vitest';
import { whenReviewerActs } from './idle';

describe('whenReviewerActs', () => {
  it('waits for the first input, then runs once however many follow', () => {
    const task = vi.fn();
    const cancel = whenReviewerActs(task);
    window.dispatchEvent(new Event('resize'));
    document.dispatchEvent(new Event('visibilitychange'));
    expect(task).not.toHaveBeenCalled();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', bubbles: true }));
    expect(task).toHaveBeenCalledTimes(1);
    document.body.dispatchEvent(new Event('pointermove', { bubbles: true }));
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', bubbles: true }));
    expect(task).toHaveBeenCalledTimes(1);
    cancel();
  });

  it('counts the pointer, a touch, the wheel and the focus moving as input', () => {
    for (const type of ['pointermove', 'pointerdown', 'touchstart', 'wheel', 'focusin']) {
      const task = vi.fn();
      const cancel = whenReviewerActs(task);
      document.body.dispatchEvent(new Event(type, { bubbles: true }));
      expect(task, type).toHaveBeenCalledTimes(1);
      cancel();
    }
  });

  it('never runs once cancelled', () => {
    const task = vi.fn();
    whenReviewerActs(task)();
    document.body.dispatchEvent(new Event('pointermove', { bubbles: true }));
    expect(task).not.toHaveBeenCalled();
  });
});
