// Medians, budgets and the printed table.
import { type Budget, budgets } from './bundle-size';

export type Unit =
  | 'bytes'
  | 'ms'
  | 's'
  | '%'
  | 'requests/min'
  | 'keys'
  | 'requests'
  | 'connections';

export interface Stat {
  median: number;
  min: number;
  max: number;
  values: number[];
}

export function stat(values: (number | null | undefined)[]): Stat | null {
  const present = values.filter((value): value is number => typeof value === 'number');
  if (present.length === 0) return null;
  const sorted = [...present].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return {
    median,
    min: sorted[0] as number,
    max: sorted.at(-1) as number,
    values: present,
  };
}

export interface Figure {
  id: string;
  label: string;
  unit: Unit;
  portal: Stat | null;
  floor: Stat | null;
  /** Show portal / floor (only where the floor does the same work). */
  compare?: boolean;
  /** Deliberately not measured this time (e.g. --soak-minutes 0). */
  skipped?: boolean;
  /** Printed next to the figure: how it was measured when that is not obvious, or why it is missing. */
  note?: string;
}

interface Scale {
  divisor: number;
  decimals: number;
  suffix: string;
}

/** One scale for a median and its range, chosen by the median: "612 (598–640) ms". */
function scaleFor(value: number, unit: Unit): Scale {
  switch (unit) {
    case 'bytes':
      return value >= 1024 * 1024
        ? { divisor: 1024 * 1024, decimals: 2, suffix: ' MB' }
        : { divisor: 1024, decimals: 1, suffix: ' KB' };
    case 'ms':
      return { divisor: 1, decimals: Math.abs(value) < 100 ? 1 : 0, suffix: ' ms' };
    case '%':
      return { divisor: 1, decimals: 1, suffix: ' %' };
    case 's':
      return { divisor: 1, decimals: 1, suffix: ' s' };
    case 'keys':
      return { divisor: 1, decimals: 0, suffix: ' keys' };
    case 'requests':
      return { divisor: 1, decimals: 0, suffix: ' requests' };
    case 'connections':
      return { divisor: 1, decimals: 0, suffix: value === 1 ? ' connection' : ' connections' };
    default:
      return { divisor: 1, decimals: 1, suffix: '/min' };
  }
}

const number = (value: number, scale: Scale) => (value / scale.divisor).toFixed(scale.decimals);

export function format(value: number, unit: Unit): string {
  const scale = scaleFor(value, unit);
  return `${number(value, scale)}${scale.suffix}`;
}

function formatStat(value: Stat | null, unit: Unit): string {
  if (!value) return '–';
  const scale = scaleFor(value.median, unit);
  if (value.values.length === 1) return `${number(value.median, scale)}${scale.suffix}`;
  return `${number(value.median, scale)} (${number(value.min, scale)}–${number(value.max, scale)})${scale.suffix}`;
}

export function ratio(figure: Figure): number | null {
  if (!figure.compare || !figure.portal || !figure.floor || figure.floor.median === 0) return null;
  return figure.portal.median / figure.floor.median;
}

export interface Verdict {
  id: string;
  label: string;
  limit: string;
  value: string;
  status: 'PASS' | 'FAIL' | 'SKIP';
  note?: string;
}

export function judge(budget: Budget, figure: Figure | undefined): Verdict {
  const unit = budget.unit as Unit;
  const base = { id: budget.id, label: budget.label };
  const floorName = budget.floorName ?? 'floor';
  const portal = figure?.portal;
  if (!figure || !portal) {
    return {
      ...base,
      limit:
        budget.max !== undefined
          ? `≤ ${format(budget.max, unit)}`
          : `≤ ${budget.maxRatioToFloor} × ${floorName}`,
      value: '–',
      status: figure?.skipped ? 'SKIP' : 'FAIL',
      note: figure?.note ?? 'not measured',
    };
  }
  const value = format(portal.median, unit);
  if (budget.max !== undefined) {
    return {
      ...base,
      limit: `≤ ${format(budget.max, unit)}`,
      value,
      status: portal.median <= budget.max ? 'PASS' : 'FAIL',
    };
  }
  const factor = budget.maxRatioToFloor as number;
  const floor = figure.floor;
  if (!floor) {
    return {
      ...base,
      limit: `≤ ${factor} × ${floorName}`,
      value,
      status: 'FAIL',
      note: `no ${floorName} figure to compare with`,
    };
  }
  if (floor.median === 0) {
    const fallback = budget.ifFloorIsZero;
    if (!fallback) {
      return {
        ...base,
        limit: `≤ ${factor} × floor (= 0)`,
        value,
        status: portal.median === 0 ? 'PASS' : 'FAIL',
        note: 'floor median is 0 and budgets.json gives no fallback: judged against 0',
      };
    }
    return {
      ...base,
      limit: `≤ ${format(fallback.max, unit)} (fallback)`,
      value,
      status: portal.median <= fallback.max ? 'PASS' : 'FAIL',
      note: `floor median is 0, so ${factor} × floor means nothing: judged against the absolute fallback ifFloorIsZero = ${format(fallback.max, unit)} from budgets.json`,
    };
  }
  const limit = factor * floor.median;
  return {
    ...base,
    limit: `≤ ${factor} × ${floorName} = ${format(limit, unit)}`,
    value: `${value} (${(portal.median / floor.median).toFixed(2)} ×)`,
    status: portal.median <= limit ? 'PASS' : 'FAIL',
  };
}

export function judgeAll(figures: Figure[], list: Budget[] = budgets): Verdict[] {
  return list.map((budget) =>
    judge(
      budget,
      figures.find((figure) => figure.id === budget.id),
    ),
  );
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] as number))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join(
    '\n',
  );
}

export function figuresTable(figures: Figure[]): string {
  return table(
    ['figure', 'portal median (min–max)', 'floor median (min–max)', 'portal / floor'],
    figures.map((figure) => {
      const r = ratio(figure);
      return [
        figure.label,
        formatStat(figure.portal, figure.unit),
        formatStat(figure.floor, figure.unit),
        r === null ? '' : `${r.toFixed(2)} ×`,
      ];
    }),
  );
}

export function budgetsTable(verdicts: Verdict[]): string {
  return table(
    ['budget', 'limit', 'portal median', 'result'],
    verdicts.map((verdict) => [verdict.label, verdict.limit, verdict.value, verdict.status]),
  );
}
