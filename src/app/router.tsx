import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { QuestionsPage } from '@/features/questions/components/questions-page';
import { AppLayout } from './app-layout';
import { NotFoundPage } from './not-found-page';
import { RouteError } from './route-error';

export const appRoutes: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/questions" replace /> },
      { path: 'questions/:id?', element: <QuestionsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter(basename: string) {
  return createBrowserRouter(appRoutes, { basename });
}
