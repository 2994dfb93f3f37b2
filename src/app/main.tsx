// Before anything builds a zod schema.
import './zod-setup';
import './mantine-styles';
import '@/styles/theme.generated.css';
import '@/styles/app.css';
import { createRoot } from 'react-dom/client';
import { loadRuntimeConfig } from '@/config/runtime-config';
import { App } from './app';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

void loadRuntimeConfig().then(async (result) => {
  if (result.ok) {
    root.render(<App config={result.config} baseUrl={result.baseUrl} />);
    return;
  }
  // Only a broken deployment needs this page: it is not part of the portal's initial download.
  try {
    const { ConfigErrorPage } = await import('./config-error-page');
    root.render(
      <ConfigErrorPage url={result.url} problem={result.problem} issues={result.issues} />,
    );
  } catch {
    root.render(
      <p>Questions Inbox cannot start: {result.problem}. Reload the page to try again.</p>,
    );
  }
});
