import { Alert, Button, Group, Text } from '@mantine/core';
import {
  Component,
  type ComponentType,
  createContext,
  createElement,
  type JSX,
  lazy,
  type ReactNode,
  Suspense,
  use,
} from 'react';

/**
 * A part of the portal whose code is downloaded when it is first needed. Unlike `React.lazy` on
 * its own, a failed download can be tried again (`retry()`): React.lazy remembers the failure.
 */
/** A part's code could not be downloaded (as opposed to a part that failed while rendering). */
export class PartDownloadError extends Error {
  constructor(cause: unknown) {
    super('A part of the portal could not be downloaded', { cause });
  }
}

/** Every part made so far (parts inside parts join when their module is loaded). */
const everyPart = new Set<{ load(): Promise<unknown> }>();
/** The parts that may be on the first screen, by name (see lazyPart's `name`). */
const namedParts = new Map<string, { load(): Promise<unknown> }>();

/**
 * The server's render of the first screen collects the names of the parts it rendered here
 * (src/app/entry-server.tsx), so the browser can load exactly those before it takes the HTML over.
 */
export const RenderedPartsContext = createContext<Set<string> | null>(null);

type Loadable = { load(): Promise<unknown> };

/** Loads what `wanted` lists, again as loading adds parts (a part's module holds more parts). */
async function loadAll(wanted: () => Loadable[]): Promise<void> {
  const done = new Set<Loadable>();
  for (;;) {
    const next = wanted().filter((part) => !done.has(part));
    if (next.length === 0) return;
    for (const part of next) done.add(part);
    await Promise.all(next.map((part) => part.load()));
  }
}

/**
 * Downloads the named parts (what the server's first screen rendered), and those named parts
 * inside them once their modules are here, so that the browser's first render (hydration) renders
 * them at once, as the server did, instead of leaving them as server HTML to take over later.
 */
export function loadParts(names: readonly string[]): Promise<void> {
  return loadAll(() => names.flatMap((name) => namedParts.get(name) ?? []));
}

/**
 * Downloads every part, and the parts they hold, so that they render without suspending: the
 * server's render of the first screen (src/app/entry-server.tsx) sends finished HTML, with no
 * script to fill in a part later (the portal's CSP allows no inline script).
 */
export function loadEveryPart(): Promise<void> {
  return loadAll(() => [...everyPart]);
}

export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  /** A part that can be on the first screen: its name (see loadParts). */
  name?: string,
) {
  const fresh = () =>
    lazy(() =>
      load().then(
        (component) => ({ default: component }),
        (error: unknown) => {
          throw new PartDownloadError(error);
        },
      ),
    );
  let Loaded = fresh();
  // Preloaded before its first render: rendered directly. Through React.lazy, even code that is
  // already here suspends once (its promise settles a microtask later), and React then renders
  // the part again in a later task: the first click on a question waited for that.
  let ready: ComponentType<P> | null = null;
  let lazyRendered = false;
  // biome-ignore lint/correctness/noComponentHookFactories: called once per part at module level, as React.lazy is.
  function Part(props: P): JSX.Element {
    const rendered = use(RenderedPartsContext);
    if (rendered && name) rendered.add(name);
    // One way per part for good: switching would remount what is on screen.
    if (ready && !lazyRendered) return createElement(ready, props);
    lazyRendered = true;
    return <Loaded {...props} />;
  }
  const part = Object.assign(Part, {
    /** Downloads the part's code ahead of its first render. */
    load: () =>
      load().then((component) => {
        ready = component;
        return component;
      }),
    retry() {
      Loaded = fresh();
    },
  });
  everyPart.add(part);
  if (name) namedParts.set(name, part);
  return part;
}

/** A quiet part that failed while online is tried again after this, then twice as long each time. */
export const QUIET_RETRY_MS = 2000;
const QUIET_RETRY_MAX_MS = 60_000;

interface LoadBoundaryProps {
  /** What could not be downloaded, in the reviewer's words: "The question view". */
  what: string;
  /** The lazily loaded parts inside, tried again when the reviewer asks (or when back online). */
  parts: Array<{ retry(): void }>;
  /** Nothing to show if it fails (an extra the reviewer did not ask for); tried again by itself. */
  quiet?: boolean;
  /** Shown while their code loads, to keep their place: what is below does not move when they come. */
  placeholder?: ReactNode;
  children: ReactNode;
}

/**
 * Around lazily loaded parts of the portal. If their code cannot be downloaded (offline, or a new
 * deployment replaced the files), say so where they would be, with a way to try again, instead
 * of crashing the page.
 */
interface LoadBoundaryState {
  failed: boolean;
  /** It was downloaded but failed while rendering: a bug or a record it could not show. */
  crashed: boolean;
}

export class LoadBoundary extends Component<LoadBoundaryProps, LoadBoundaryState> {
  override state = { failed: false, crashed: false };

  static getDerivedStateFromError(error: unknown): LoadBoundaryState {
    return { failed: true, crashed: !(error instanceof PartDownloadError) };
  }

  private alert: HTMLDivElement | null = null;

  /** Failed downloads of a quiet part so far (its retries come less often each time). */
  private quietFailures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  private readonly retry = () => {
    this.cancelRetry();
    for (const part of this.props.parts) part.retry();
    this.setState({ failed: false, crashed: false });
  };

  private cancelRetry() {
    window.removeEventListener('online', this.retry);
    clearTimeout(this.retryTimer);
  }

  override componentDidUpdate(_: LoadBoundaryProps, previous: LoadBoundaryState) {
    if (!this.state.failed || previous.failed) return;
    // What had focus (in the part) is gone: the message takes it, so it is seen and heard.
    if (!this.props.quiet && (!document.activeElement || document.activeElement === document.body))
      this.alert?.focus();
    // A part that crashed would crash again the same way: only the reviewer's Try again retries.
    if (this.state.crashed) return;
    // Offline: when the connection comes back. Online already (a server hiccup, or the failure
    // arrived after the connection came back): a visible part has its "Try again" button; a quiet
    // one, which nobody can see failed, tries again by itself, less often each time.
    if (!navigator.onLine || !this.props.quiet) {
      window.addEventListener('online', this.retry, { once: true });
      return;
    }
    const delay = Math.min(QUIET_RETRY_MAX_MS, QUIET_RETRY_MS * 2 ** this.quietFailures);
    this.quietFailures += 1;
    this.retryTimer = setTimeout(this.retry, delay);
  }

  override componentWillUnmount() {
    this.cancelRetry();
  }

  override render() {
    if (!this.state.failed)
      return <Suspense fallback={this.props.placeholder}>{this.props.children}</Suspense>;
    if (this.props.quiet) return null;
    const { crashed } = this.state;
    return (
      <Alert
        ref={(node) => {
          this.alert = node;
        }}
        tabIndex={-1}
        color="red"
        variant="light"
        role="alert"
        title={`${this.props.what} ${crashed ? 'could not be shown' : 'could not be downloaded'}`}
      >
        <Text size="sm">
          {crashed
            ? 'Something in it failed while it was drawn on the page. Try again, or reload the page.'
            : 'Check your connection and try again; it is also tried again when the connection comes back.'}{' '}
          Answers you were typing are saved as drafts in this browser.
        </Text>
        <Group mt="sm">
          <Button size="xs" color="red" onClick={this.retry}>
            Try again
          </Button>
          <Button size="xs" variant="default" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
        </Group>
      </Alert>
    );
  }
}
