import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { questionStatuses } from '../../api/schemas';
import { statusMeta } from '../../utils/question-policy';
import { StatusBadge } from './status-badge';

describe('StatusBadge', () => {
  it.each(questionStatuses)(
    'draws %s with the label and colour of its statusMeta entry',
    (status) => {
      const { color, label } = statusMeta[status];
      render(<StatusBadge status={status} />);
      const badge = screen.getByText(label);
      expect(badge.style.getPropertyValue('--badge-bg')).toBe(
        `var(--mantine-color-${color}-light)`,
      );
      expect(badge.style.getPropertyValue('--badge-fg')).toBe(
        `var(--mantine-color-${color}-light-color)`,
      );
    },
  );

  it('gives a question resolved as not applicable its own badge, and only a resolved one', () => {
    render(<StatusBadge status="resolved" notApplicable />);
    expect(screen.getByText('Not applicable')).toBeInTheDocument();
    expect(screen.queryByText('Resolved')).not.toBeInTheDocument();
    render(<StatusBadge status="superseded" notApplicable />);
    expect(screen.getByText('Superseded')).toBeInTheDocument();
  });
});
