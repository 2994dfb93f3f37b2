import { useQuery } from '@tanstack/react-query';
import { useActedOn } from '@/config/acted';
import { useAfterHydration } from '@/lib/first-screen';
import { fetchActivity } from '../api/requests';
import type { ActivityEntry } from '../api/schemas';
import { accepted, auditQuestionId, reviewerText, shortReviewer } from '../utils/describe';

// The rows on screen ask together: one request for up to 100 questions, not one per row.
const waiting: {
  id: string;
  resolve: (entry: ActivityEntry | null) => void;
  reject: (e: unknown) => void;
}[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;

function lastActor(id: string): Promise<ActivityEntry | null> {
  return new Promise((resolve, reject) => {
    waiting.push({ id, resolve, reject });
    if (timer === null) timer = setTimeout(flush, 20);
  });
}

async function flush() {
  timer = null;
  const batch = waiting.splice(0, 100);
  if (waiting.length) timer = setTimeout(flush, 0);
  const ids = [...new Set(batch.map((item) => item.id))];
  try {
    const page = await fetchActivity({ question: ids }, { limit: 200 });
    for (const item of batch) {
      item.resolve(
        page.entries.find((entry) => entry.questionId === item.id && accepted(entry) !== false) ??
          null,
      );
    }
  } catch (error) {
    for (const item of batch) item.reject(error);
  }
}

/** "by alice" on a row the portal's reviewers closed: who acted last, from the trail. */
export function ActedBy({
  question,
}: {
  question: { id: string; status: string; source: { id: string; kind: string } };
}) {
  const id = auditQuestionId(question);
  const { data: asked, refetch } = useQuery({
    queryKey: ['activity', 'acted-by', question.source.id, id, question.status],
    queryFn: () => lastActor(id),
    staleTime: 60_000,
    retry: false,
  });
  // Another reviewer edited it: their name now, not once this is a minute old.
  useActedOn([question], () => void refetch());
  // Not in the server's first screen, nor in the browser's render that takes it over.
  const data = useAfterHydration(asked, () => undefined);
  if (!data) return null;
  return (
    <span title={`${reviewerText(data)}, through the portal`} data-testid="acted-by">
      {' '}
      by {shortReviewer(data.reviewer)}
    </span>
  );
}

export default ActedBy;
