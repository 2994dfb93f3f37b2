// Runs in every benchmarked page before the page's own scripts (context.addInitScript), the same
// for the portal and the floor. Plain JavaScript on purpose: the functions the bench hands to
// page.evaluate() must be tiny, because tsx rewrites named inner functions into calls to a helper
// that does not exist in the page. Everything that needs a loop or a callback lives here.
// The bench appends `installBenchProbes({...})` with its selectors and mark names.

// biome-ignore lint/correctness/noUnusedVariables: called by the line the bench appends.
function installBenchProbes(config) {
  if (window.top !== window) return;

  /** Calls back with performance.now() once the frame that runs this rAF callback has painted. */
  const afterThisFrame = (callback) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => callback(performance.now());
    channel.port2.postMessage(null);
  };
  const afterNextPaint = (callback) => requestAnimationFrame(() => afterThisFrame(callback));

  const longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        longTasks.push({ startTime: entry.startTime, duration: entry.duration });
      }
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No Long Tasks API: blocking time is reported as missing, not as zero.
    longTasks.push(null);
  }

  const visibility = [];
  document.addEventListener('visibilitychange', () => {
    visibility.push({ at: performance.now(), state: document.visibilityState });
  });

  // List visible: the first painted frame with a row in the DOM and the app's "rendered" mark.
  // Without the mark (an app that does not set it yet) the first painted frame with rows is used
  // after a grace period, and the result says so.
  let resolveList;
  const listVisible = new Promise((resolve) => {
    resolveList = resolve;
  });
  let rowsPaintedAt = null;
  // Rows the server rendered into the page (issue 40) are the list's own rows from the start:
  // visible once painted, before the app's code has run (it sets the mark when it takes over).
  const served = () => document.querySelector('meta[name="qi-first-screen"]') !== null;
  const watchList = () => {
    const rows = document.querySelector(config.row) !== null;
    const marked = performance.getEntriesByName(config.renderedMark, 'mark').length > 0;
    if (rows && (marked || served())) {
      const count = document.querySelectorAll(config.row).length;
      afterThisFrame((at) => resolveList({ at, marked: true, rows: count }));
      return;
    }
    if (rows && rowsPaintedAt === null) {
      rowsPaintedAt = -1;
      afterThisFrame((at) => {
        rowsPaintedAt = at;
      });
    }
    if (rowsPaintedAt > 0 && performance.now() - rowsPaintedAt > config.markGraceMs) {
      resolveList({
        at: rowsPaintedAt,
        marked: false,
        rows: document.querySelectorAll(config.row).length,
      });
      return;
    }
    requestAnimationFrame(watchList);
  };
  requestAnimationFrame(watchList);

  // Interactive: a click on a row opens it. A page the server rendered is, once the app has taken
  // it over (main.tsx sets data-hydrated; a click before that waits for it); any other page, once
  // its list is visible.
  const interactive = new Promise((resolve) => {
    listVisible.then((visible) => {
      if (!served()) {
        resolve(visible.at);
        return;
      }
      const done = () => document.documentElement.dataset.hydrated !== undefined;
      if (done()) {
        resolve(Math.max(visible.at, performance.now()));
        return;
      }
      const observer = new MutationObserver(() => {
        if (!done()) return;
        observer.disconnect();
        resolve(Math.max(visible.at, performance.now()));
      });
      observer.observe(document.documentElement, { attributes: true });
    });
  });

  const rowIds = () =>
    Array.from(document.querySelectorAll(config.row), (row) =>
      row.getAttribute(config.rowIdAttribute),
    ).join('\n');

  const probe = {
    listVisible,
    interactive,
    visibility,

    /** Sum of max(0, duration - 50) over long tasks that start before `before` (ms). */
    blockingTime(before) {
      if (longTasks.includes(null)) return null;
      return longTasks
        .filter((task) => task.startTime < before)
        .reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0);
    },

    markDelta(from, to) {
      const start = performance.getEntriesByName(from, 'mark')[0];
      const end = performance.getEntriesByName(to, 'mark')[0];
      return start && end ? end.startTime - start.startTime : null;
    },

    /** URLs of the resources whose response had ended by `before`. */
    resourcesBefore(before) {
      return performance
        .getEntriesByType('resource')
        .filter((entry) => entry.responseEnd <= before)
        .map((entry) => entry.name);
    },

    /**
     * Resolves once no DOM change but text updates (countdowns) has happened for `quietMs`;
     * false if that never happened within `timeoutMs`.
     */
    settle(quietMs, timeoutMs) {
      return new Promise((resolve) => {
        let quiet = 0;
        const finish = (settled) => {
          observer.disconnect();
          clearTimeout(quiet);
          clearTimeout(deadline);
          resolve(settled);
        };
        const restart = () => {
          clearTimeout(quiet);
          quiet = setTimeout(() => finish(true), quietMs);
        };
        const observer = new MutationObserver((records) => {
          if (records.some((record) => record.type !== 'characterData')) restart();
        });
        const deadline = setTimeout(() => finish(false), timeoutMs);
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
        restart();
      });
    },

    /**
     * Arms the search measurement: keydown of `key` (its event timeStamp) to the paint after
     * the set of rows in the DOM changes. Read the outcome from `probe.search`.
     */
    armSearch(key, timeoutMs) {
      const before = rowIds();
      let keydownAt = null;
      const onKeydown = (event) => {
        if (event.key === key && keydownAt === null) keydownAt = event.timeStamp;
      };
      window.addEventListener('keydown', onKeydown, true);
      probe.search = new Promise((resolve) => {
        const done = (paintedAt) => {
          observer.disconnect();
          clearTimeout(deadline);
          window.removeEventListener('keydown', onKeydown, true);
          resolve({ keydownAt, paintedAt, rows: document.querySelectorAll(config.row).length });
        };
        const observer = new MutationObserver(() => {
          if (keydownAt === null || rowIds() === before) return;
          observer.disconnect();
          afterNextPaint(done);
        });
        const deadline = setTimeout(() => done(null), timeoutMs);
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          attributeFilter: [config.rowIdAttribute],
        });
      });
    },

    /**
     * Arms the drawer measurement: the next click (its event timeStamp) to the paint of the first
     * frame in which the dialog is in the DOM with a non-zero size. Read it from `probe.drawer`.
     */
    armDrawer(timeoutMs) {
      probe.drawer = new Promise((resolve) => {
        let clickAt = null;
        let deadline = 0;
        let finished = false;
        const watch = () => {
          if (finished) return;
          const dialog = document.querySelector(config.dialog);
          const box = dialog?.getBoundingClientRect();
          if (box && box.width > 0 && box.height > 0) {
            finished = true;
            clearTimeout(deadline);
            afterThisFrame((paintedAt) => resolve({ clickAt, paintedAt }));
            return;
          }
          requestAnimationFrame(watch);
        };
        window.addEventListener(
          'click',
          (event) => {
            clickAt = event.timeStamp;
            deadline = setTimeout(() => {
              finished = true;
              resolve({ clickAt, paintedAt: null });
            }, timeoutMs);
            requestAnimationFrame(watch);
          },
          { capture: true, once: true },
        );
      });
    },

    /** A timer still fires: the page is hidden but not frozen. */
    timerFires() {
      return new Promise((resolve) => {
        const started = performance.now();
        setTimeout(() => resolve(performance.now() - started), 10);
      });
    },
  };
  window.__bench = probe;
}
