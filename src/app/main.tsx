// Before anything builds a zod schema.
import './zod-setup';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@/styles/theme.generated.css';
import '@/styles/app.css';
import { createRoot } from 'react-dom/client';
import { loadRuntimeConfig } from '@/config/runtime-config';
import { App } from './app';
import { ConfigErrorPage } from './config-error-page';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

void loadRuntimeConfig().then((result) => {
  root.render(
    result.ok ? (
      <App config={result.config} baseUrl={result.baseUrl} />
    ) : (
      <ConfigErrorPage url={result.url} problem={result.problem} issues={result.issues} />
    ),
  );
});
