import { Component, type ReactNode } from 'react';
import { Navigate, Route, Routes, useSearchParams } from 'react-router';
import { LoadBoundary } from '@/components/load-boundary';
import { ACTIVITY_PATH, INBOX_ROUTE, INSIGHTS_PATH, QUESTIONS_PATH } from '@/config/routes';
import { QuestionsPage } from '@/features/questions/components/list/questions-page';
import { AppLayout } from './app-layout';
import { ActivityPage, InsightsPage } from './audit-parts';
import { NotFoundPage } from './not-found-page';
import { RouteError } from './route-error';

/** Last resort when a screen crashes while rendering. */
class ScreenErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  override render() {
    return this.state.error ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

/**
 * The portal's routes. Declarative routes (inside <BrowserRouter> or a test's <MemoryRouter>):
 * the portal loads no data through the router, and the data router would add about 18 KB of
 * gzipped JavaScript to every first visit.
 */

/** A page loaded when first opened, whose filters are its address's query (Activity, Insights). */
function PageRoute({
  what,
  Page,
}: {
  what: string;
  Page: typeof ActivityPage | typeof InsightsPage;
}) {
  const [params, setParams] = useSearchParams();
  return (
    <LoadBoundary what={what} parts={[Page]}>
      <Page params={params} setParams={setParams} />
    </LoadBoundary>
  );
}

export function AppRoutes() {
  return (
    <ScreenErrorBoundary>
      <Routes>
        <Route path="/" element={<AppLayout />}>
          <Route index element={<Navigate to={QUESTIONS_PATH} replace />} />
          <Route path={INBOX_ROUTE.slice(1)} element={<QuestionsPage />} />
          <Route
            path={ACTIVITY_PATH.slice(1)}
            element={<PageRoute what="The activity page" Page={ActivityPage} />}
          />
          <Route
            path={INSIGHTS_PATH.slice(1)}
            element={<PageRoute what="The insights page" Page={InsightsPage} />}
          />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </ScreenErrorBoundary>
  );
}
