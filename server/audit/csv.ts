// The trail as CSV: every text cell quoted, and a cell a spreadsheet would read as a formula
// defused, whatever separator it splits on; streamed a page at a time.
import { message } from '../lib/message';
import type { AuditEntry, AuditPage } from './types';

const CSV_MAX_ROWS = 100_000;
const CSV_PAGE = 500;

/**
 * The CSV a page at a time as the download is read: memory holds one page, whatever the trail's
 * size, and the first bytes leave as soon as the first page is read.
 */
export function csvStream(
  first: AuditPage,
  next: (page: { cursor: number; limit: number }) => Promise<AuditPage>,
  log: (line: string) => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let page: AuditPage | null = first;
  let rows = 0;
  let header = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!page) {
            controller.close();
            return;
          }
          const lines = header ? [CSV_COLUMNS.join(',')] : [];
          header = false;
          const room = CSV_MAX_ROWS - rows;
          for (const entry of page.entries.slice(0, room)) lines.push(csvRow(entry));
          rows += Math.min(page.entries.length, room);
          const cursor = page.nextCursor;
          page = null;
          controller.enqueue(encoder.encode(`${lines.join('\r\n')}\r\n`));
          if (cursor !== null && rows < CSV_MAX_ROWS) {
            page = await next({ cursor, limit: CSV_PAGE });
          }
        } catch (error) {
          log(`[audit] the CSV stopped part way: ${message(error)}`);
          controller.error(error);
        }
      },
    },
    { highWaterMark: 0 },
  );
}

export const CSV_COLUMNS = [
  'time',
  'reviewer',
  'reviewer_name',
  'source',
  'source_kind',
  'question_id',
  'question_asked',
  'action',
  'status',
  'request_id',
  'answer',
  'answer_kept_as',
  'answer_bytes',
  'answer_sha256',
  'detail',
  'reviewer_self_named',
] as const;

/**
 * A CSV field: every text quoted, so a spreadsheet that splits on `;` or a tab instead of `,`
 * keeps it one cell, and a leading = + - @ tab or CR defused with `'` so it shows as text.
 */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  // Numbers and yes/no are not text: a spreadsheet reads them as they are.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvRow(entry: AuditEntry): string {
  return [
    entry.at,
    entry.reviewer,
    entry.reviewerName,
    entry.sourceId,
    entry.sourceKind,
    entry.questionId,
    entry.asked,
    entry.action,
    entry.status,
    entry.requestId,
    entry.answer,
    entry.answerMode,
    entry.answerBytes,
    entry.answerSha256,
    entry.detail,
    entry.selfNamed,
  ]
    .map(csvField)
    .join(',');
}
