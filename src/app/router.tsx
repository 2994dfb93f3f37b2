import { createBrowserRouter, Navigate } from 'react-router';
import { QuestionsPage } from '@/features/questions/components/questions-page';
import { AppLayout } from './app-layout';
import { NotFoundPage } from './not-found-page';

export function createAppRouter(basename: string) {
  return createBrowserRouter(
    [
      {
        path: '/',
        element: <AppLayout />,
        children: [
          { index: true, element: <Navigate to="/questions" replace /> },
          { path: 'questions/:id?', element: <QuestionsPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
    { basename },
  );
}
