import { useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useCallback } from 'react';
import { Link, Outlet, useMatch, useNavigate } from 'react-router';
import { LoadBoundary, lazyPart } from '@/components/load-boundary';
import { ACTIVITY_PATH, INSIGHTS_PATH, QUESTION_ROUTE, QUESTIONS_PATH } from '@/config/routes';
import { sourcesNeedingKeys, useRuntimeConfig } from '@/config/runtime-config';
import { useShell } from '@/config/shell-context';
import { useTokens } from '@/config/token-store';
import { useIsCovered } from '@/lib/covering-layer';
import { PREFERENCE_COOKIES, rememberPreference, useAfterHydration } from '@/lib/first-screen';
import classes from './app-layout.module.css';
import { HeaderTools, PushMenu } from './audit-parts';
import { NotificationsToggle } from './notifications-toggle';
import { ClockNotice, StatusBanners } from './status-banners';
import { useSignedInUser } from './use-signed-in-user';

// Only token mode asks for a key; proxy deployments never download the form.
const TokenForm = lazyPart(() => import('./token-form').then((m) => m.TokenForm));

/**
 * The mark from public/favicon.svg, inline: an `<img>` of an SVG makes the browser load and lay
 * out a separate SVG document on the main thread while the first screen renders.
 */
function Logo() {
  return (
    <svg viewBox="0 0 32 32" className={classes.logo} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#1864ab" />
      <path
        d="M12.2 12.3a3.9 3.9 0 1 1 5.4 3.6c-1 .5-1.6 1.3-1.6 2.4v.9"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
      />
      <circle cx="16" cy="23.2" r="1.7" fill="#fff" />
    </svg>
  );
}

// The header is plain elements drawn with the theme's variables: it renders on every page load,
// before the list, and Mantine's components cost render time there for no difference on screen.
function ColorSchemeToggle() {
  // keepTransitions: otherwise Mantine injects a <style> to pause transitions, which the CSP (style-src 'self') refuses.
  const { setColorScheme } = useMantineColorScheme({ keepTransitions: true });
  const computed = useAfterHydration(
    useComputedColorScheme('light', { getInitialValueInEffect: false }),
    (view) => view.colorScheme,
  );
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className={classes.iconButton}
      onClick={() => {
        setColorScheme(next);
        // The server renders the next page in it too (docs/server-rendering.md).
        rememberPreference(PREFERENCE_COOKIES.colorScheme, next);
      }}
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
    >
      {computed === 'dark' ? <IconSun size={18} aria-hidden /> : <IconMoon size={18} aria-hidden />}
    </button>
  );
}

function SignedInUser() {
  const name = useSignedInUser();
  if (!name) return null;
  return (
    <span className={classes.user} title={name}>
      Signed in as {name}
    </span>
  );
}

export function AppLayout() {
  const { embed, tokens } = useShell();
  const config = useRuntimeConfig();
  const keys = useTokens(tokens);
  const needsToken = sourcesNeedingKeys(config).some((source) => !keys[source.id]);
  const questionOpen = useMatch(QUESTION_ROUTE) !== null;
  const covered = useIsCovered();
  const navigate = useNavigate();
  // A clicked notification (public/push-sw.js) routes this tab to its question.
  const openQuestion = useCallback((path: string) => navigate(path), [navigate]);
  return (
    // Behind an open question (a modal drawer) the page is inert: no focus, no screen reader, no
    // clicks. Only while the drawer is really there: if it failed, its message is in the page.
    <div
      className={classes.shell}
      data-embed={embed || undefined}
      inert={(questionOpen && covered && !needsToken) || undefined}
    >
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a link to #main; the click handler only keeps <base href> from turning it into a page load. */}
      <a
        href="#main"
        className={classes.skip}
        onClick={(event) => {
          // With <base href>, "#main" would point at the base URL and reload the app.
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to the questions
      </a>
      {!embed && (
        <header className={classes.header}>
          <Link to={QUESTIONS_PATH} className={classes.brand}>
            <Logo />
            <h1 className={classes.title}>Questions Inbox</h1>
          </Link>
          <div className={classes.tools}>
            <SignedInUser />
            <LoadBoundary what="Who you are" parts={[HeaderTools]} quiet>
              <HeaderTools className={classes.who} />
            </LoadBoundary>
            <Link to={ACTIVITY_PATH} className={classes.nav}>
              Activity
            </Link>
            <Link to={INSIGHTS_PATH} className={classes.nav}>
              Insights
            </Link>
            <NotificationsToggle />
            <LoadBoundary what="Notification options" parts={[PushMenu]} quiet>
              <PushMenu onOpenQuestion={openQuestion} />
            </LoadBoundary>
            <ColorSchemeToggle />
          </div>
        </header>
      )}
      <main id="main" className={classes.main} tabIndex={-1}>
        {embed && <h1 className="visually-hidden">Questions Inbox</h1>}
        {embed && !needsToken && (
          <div className={classes.embedTools}>
            <NotificationsToggle />
            <LoadBoundary what="Notification options" parts={[PushMenu]} quiet>
              <PushMenu onOpenQuestion={openQuestion} />
            </LoadBoundary>
          </div>
        )}
        <StatusBanners />
        {needsToken ? (
          <LoadBoundary what="The sign-in form" parts={[TokenForm]}>
            <TokenForm />
          </LoadBoundary>
        ) : (
          <Outlet />
        )}
        <ClockNotice />
      </main>
    </div>
  );
}
