import { describe, expect, it } from 'vitest';
import { shareInterop } from './shared-interop';

// Rolldown's runtime chunk as renderChunk sees it (rolldown 1.0 beta, with Vite 8).
const RUNTIME = `// \\0rolldown/runtime.js
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __copyProps = (to, from, except, desc) => {
	if (from && typeof from === "object" || typeof from === "function") {
		for (var keys = __getOwnPropNames(from), i = 0, n = keys.length, key; i < n; i++) {
			key = keys[i];
			if (!__hasOwnProp.call(to, key) && key !== except) {
				__defProp(to, key, {
					get: ((k) => from[k]).bind(null, key),
					enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable
				});
			}
		}
	}
	return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(isNodeMode || !mod || !mod.__esModule || !__hasOwnProp.call(mod, "default") ? __defProp(target, "default", {
	value: mod,
	enumerable: true
}) : target, mod));

export { __toESM as r };`;

type ToESM = (mod: unknown, isNodeMode?: number) => Record<string, unknown>;

function load(code: string): ToESM {
  const body = code.replace(/\nexport \{[^}]*\};?\s*$/, '\nreturn __toESM;');
  return new Function(body)() as ToESM;
}

describe('shareInterop', () => {
  it('makes the wrapper of a CommonJS module once per flag, reading its exports as they are', () => {
    const shared = shareInterop(RUNTIME);
    expect(shared).not.toBeNull();
    // No line moves: the chunk's source map still holds.
    expect(shared?.split('\n').length).toBe(RUNTIME.split('\n').length);
    const toESM = load(shared as string);
    const exports: Record<string, unknown> = { useState: 1 };
    const first = toESM(exports, 1);
    expect(toESM(exports, 1)).toBe(first);
    expect(first.default).toBe(exports);
    expect(first.useState).toBe(1);
    exports.useState = 2;
    expect(first.useState).toBe(2);
    expect(toESM(exports)).not.toBe(first);
    expect(toESM(exports)).toBe(toESM(exports, 0));
    expect(toESM({ useState: 1 }, 1)).not.toBe(first);
    expect(toESM(undefined, 1)).toEqual({ default: undefined });
  });

  it('leaves chunks without the runtime alone, and fails on a definition it does not know', () => {
    expect(shareInterop('export const a = 1;')).toBeNull();
    expect(() => shareInterop('var __toESM = (mod) => mod;')).toThrow(/shared-interop/);
  });
});
