// Rolldown's CommonJS interop made once per module instead of once per importing chunk.
import type { Plugin } from 'vite';

const DEFINITION = 'var __toESM = (mod, isNodeMode, target) =>';
const DEFINITION_END = ', mod));';

// On the line that ends the definition, so the lines after it (and their source map) stay put.
const MEMO =
  ' var __toESMEach = __toESM, __toESMMade = new WeakMap();' +
  ' __toESM = (mod, isNodeMode) => {' +
  ' if (mod == null || (typeof mod !== "object" && typeof mod !== "function")) return __toESMEach(mod, isNodeMode);' +
  ' let made = __toESMMade.get(mod);' +
  ' if (!made) __toESMMade.set(mod, (made = []));' +
  ' return (made[isNodeMode ? 1 : 0] ??= __toESMEach(mod, isNodeMode)); };';

/**
 * The chunk's code with `__toESM` remembering what it made for each CommonJS module (React, React
 * DOM, the scheduler), or null when the chunk does not define it. Rolldown calls it once in every
 * chunk that imports such a module, and each call builds an object with a bound getter per export:
 * about 22 of them in the page after load, 0.08 MB of the JS heap (bench). The object depends only
 * on the module and the flag, and its getters read the module's exports as they are, so one is
 * shared. Throws if the chunk defines it in a way this does not know (a new Rolldown): better a
 * failed build than the heap quietly back up.
 */
export function shareInterop(code: string): string | null {
  if (!code.includes('var __toESM')) return null;
  const start = code.indexOf(DEFINITION);
  const end = start < 0 ? -1 : code.indexOf(DEFINITION_END, start);
  if (end < 0) {
    throw new Error(
      'shared-interop: Rolldown defines __toESM differently now; see scripts/shared-interop.ts',
    );
  }
  const at = end + DEFINITION_END.length;
  return code.slice(0, at) + MEMO + code.slice(at);
}

export function sharedInterop(): Plugin {
  return {
    name: 'questions-inbox:shared-interop',
    apply: 'build',
    renderChunk(code) {
      const shared = shareInterop(code);
      // Text added at the end of a line: no line of the chunk moves, so its source map holds.
      return shared === null ? null : { code: shared, map: null };
    },
  };
}
