// The docs stay true to the code: the README stays short, every setting the code reads or accepts
// is documented, and every relative link (and #anchor) in the README and docs/ leads somewhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { SETTING_NAMES } from '../server/settings/settings';
import { runtimeConfigSchema } from '../src/config/runtime-config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

const README_MAX_BYTES = 12_288;
/** Where the environment variables the portal's server (and its tools) read are looked for. */
const ENV_SOURCE_DIRS = ['server', 'mock', 'scripts'];
/** The operating system's own, read only to start child processes. */
const OS_VARIABLES = new Set(['PATH']);

const docFiles = () => [
  'README.md',
  'bench/README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Markdown without its fenced code blocks (their `#` lines are no headings, their `[x](y)` no links). */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of withoutFences(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const plain = (text ?? '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .toLowerCase();
    const base = plain.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** The link and image targets of a Markdown file, outside code. */
function linkTargets(markdown: string): string[] {
  const text = withoutFences(markdown).replace(/`[^`\n]*`/g, '');
  const targets = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (match) => match[1] ?? '',
  );
  for (const match of text.matchAll(/<(?:img|a)\s[^>]*?(?:src|href)="([^"]+)"/g)) {
    targets.push(match[1] ?? '');
  }
  return targets;
}

/** Every relative link of `file` that leads nowhere: a missing file, or an anchor with no heading. */
function brokenLinks(file: string, markdown: string, readTarget = read): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
    const [pathPart = '', anchor] = target.split('#', 2);
    const targetFile = pathPart
      ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(pathPart)))
      : file;
    if (pathPart && (targetFile.startsWith('..') || !existsSync(path.join(root, targetFile)))) {
      broken.push(`${target} (no file ${targetFile})`);
      continue;
    }
    if (anchor === undefined) continue;
    const content = pathPart ? readTarget(targetFile) : markdown;
    if (!targetFile.endsWith('.md') || !headingSlugs(content).has(decodeURIComponent(anchor))) {
      broken.push(`${target} (no heading #${anchor} in ${targetFile})`);
    }
  }
  return broken;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !/(\.test|test-support)\.ts$/.test(file));
}

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

/**
 * The values a function's parameter takes: its default, and the string literal each call in the
 * same file passes. Only the first parameter can be followed; anything else is an error, so that a
 * way of reading the environment this scan does not understand fails the test instead of hiding.
 */
function parameterValues(source: string, at: number, parameter: string, file: string): string[] {
  const functions = [...source.slice(0, at).matchAll(/function\s+(\w+)\s*\(([^)]*)\)/g)];
  const enclosing = functions.at(-1);
  if (!enclosing) throw new Error(`${file}: cannot tell which function reads env[${parameter}]`);
  const [, name, list = ''] = enclosing;
  const params = list.split(',').map((param) => param.trim());
  const index = params.findIndex((param) => new RegExp(`^${parameter}\\b`).test(param));
  if (index !== 0) {
    throw new Error(`${file}: env[${parameter}] in ${name}(): only a first parameter is followed`);
  }
  const values: string[] = [];
  const fallback = /=\s*(['"])([^'"]+)\1/.exec(params[index] ?? '');
  if (fallback?.[2]) values.push(fallback[2]);
  for (const call of source.matchAll(new RegExp(`(?<!function\\s+)\\b${name}\\(([^)]*)`, 'g'))) {
    const first = (call[1] ?? '').split(',')[0]?.trim() ?? '';
    if (first === '') continue;
    const literal = /^(['"])([^'"]+)\1$/.exec(first);
    if (!literal?.[2])
      throw new Error(`${file}: ${name}(${first}, …) reads a name not written out`);
    values.push(literal[2]);
  }
  return values;
}

/**
 * The variables a file reads. server/settings/settings.ts reads only the names it lists (its reader's
 * parameter is typed by that list), so its list is taken as it is.
 */
function fileReads(file: string): Set<string> {
  if (file === path.join('server', 'settings', 'settings.ts')) return new Set(SETTING_NAMES);
  return envReads(read(file), file);
}

/** Every environment variable `source` reads, as `env.NAME`, `env['NAME']`, `env[name]` or `env[\`${x}_URL\`]`. */
function envReads(source: string, file = 'source'): Set<string> {
  const names = new Set<string>();
  for (const match of source.matchAll(/\benv\.([A-Za-z_]\w*)/g)) {
    if (ENV_NAME.test(match[1] ?? '')) names.add(match[1] ?? '');
  }
  for (const match of source.matchAll(/\benv\[([^\]]+)\]/g)) {
    const inner = (match[1] ?? '').trim();
    const at = match.index ?? 0;
    const literal = /^(['"])([^'"]+)\1$/.exec(inner);
    const template = /^`([^`]*)`$/.exec(inner);
    if (literal?.[2]) names.add(literal[2]);
    else if (/^[A-Za-z_$][\w$]*$/.test(inner)) {
      for (const value of parameterValues(source, at, inner, file)) names.add(value);
    } else if (template?.[1] !== undefined) {
      const parts = template[1];
      const holes = [...parts.matchAll(/\$\{\s*([A-Za-z_$][\w$]*)\s*\}/g)];
      if (holes.length !== 1 || !holes[0]?.[1]) {
        throw new Error(`${file}: cannot follow env[${inner}]`);
      }
      for (const value of parameterValues(source, at, holes[0][1], file)) {
        names.add(parts.replace(holes[0][0], value));
      }
    } else {
      throw new Error(`${file}: cannot follow env[${inner}]`);
    }
  }
  for (const name of names) if (!ENV_NAME.test(name)) throw new Error(`${file}: odd name ${name}`);
  return names;
}

type Def = { type: string; [key: string]: unknown };
type Schemaish = { _zod: { def: Def } };

/** Every key path a zod schema accepts: `auth.mode`, `sources[].kind`, … */
function schemaKeys(schema: Schemaish, prefix = ''): Set<string> {
  const keys = new Set<string>();
  const def = schema._zod.def;
  const walk = (inner: unknown, at: string) => {
    for (const key of schemaKeys(inner as Schemaish, at)) keys.add(key);
  };
  switch (def.type) {
    case 'pipe':
      walk(def.in, prefix);
      break;
    case 'default':
    case 'prefault':
    case 'optional':
    case 'nullable':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      walk(def.innerType, prefix);
      break;
    case 'object':
      for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) {
        keys.add(`${prefix}${key}`);
        walk(value, `${prefix}${key}.`);
      }
      break;
    case 'array':
      walk(def.element, `${prefix.replace(/\.$/, '')}[].`);
      break;
    case 'union':
      for (const option of def.options as unknown[]) walk(option, prefix);
      break;
    default:
      // Leaves (strings, numbers, enums) and records, whose keys are the user's own.
      break;
  }
  return keys;
}

/** The first cells (`` `name` ``) of the table rows under the `## heading` of a Markdown file. */
function documentedNames(markdown: string, heading: string): Set<string> {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/configuration.md has no "## ${heading}"`);
  const next = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  return new Set([...section.matchAll(/^\|\s*`([^`]+)`\s*\|/gm)].map((match) => match[1] ?? ''));
}

describe('the docs', () => {
  test(`README.md is at most ${README_MAX_BYTES} bytes`, () => {
    const bytes = Buffer.byteLength(read('README.md'));
    expect(bytes, 'README.md grew: move the detail to a page in docs/').toBeLessThanOrEqual(
      README_MAX_BYTES,
    );
  });

  test('every environment variable the code reads is in docs/configuration.md', () => {
    const read_ = new Map<string, string>();
    for (const file of ENV_SOURCE_DIRS.flatMap(sourceFiles)) {
      for (const name of fileReads(file)) if (!OS_VARIABLES.has(name)) read_.set(name, file);
    }
    // The scan finds what start.ts reads through helpers, not only `env.NAME`.
    expect([...read_.keys()]).toEqual(
      expect.arrayContaining(['PORT', 'REFLEXIO_URL', 'BILBY_API_KEY', 'MAX_BODY_BYTES']),
    );
    const doc = read('docs/configuration.md');
    const documented = new Set([...documentedNames(doc, 'Environment variables')]);
    const missing = [...read_].filter(([name]) => !documented.has(name));
    expect(
      missing.map(([name, file]) => `${name} (read in ${file})`),
      'add a row for each to a table in "## Environment variables" of docs/configuration.md',
    ).toEqual([]);
  });

  test('docs/configuration.md documents no server variable the server does not read', () => {
    const serverReads = new Set(
      ['server', 'mock'].flatMap(sourceFiles).flatMap((file) => [...fileReads(file)]),
    );
    const doc = read('docs/configuration.md');
    const main = doc.slice(0, doc.indexOf('\n### Variables of the development tools'));
    const stale = [...documentedNames(main, 'Environment variables')].filter(
      (name) => !serverReads.has(name),
    );
    expect(stale, 'rows for variables nothing reads any more').toEqual([]);
  });

  test('every config.json key the schema accepts is in docs/configuration.md, and no other', () => {
    const keys = schemaKeys(runtimeConfigSchema() as unknown as Schemaish);
    expect([...keys]).toEqual(expect.arrayContaining(['auth.mode', 'sources[].organizationId']));
    const documented = documentedNames(read('docs/configuration.md'), 'config.json');
    expect(
      [...keys].filter((key) => !documented.has(key)),
      'add a row for each to the table in "## config.json" of docs/configuration.md',
    ).toEqual([]);
    expect(
      [...documented].filter((key) => !keys.has(key)),
      'rows for keys config.json no longer accepts',
    ).toEqual([]);
  });

  test.each(docFiles())('every relative link in %s leads to a file and heading', (file) => {
    expect(brokenLinks(file, read(file))).toEqual([]);
  });

  test('every page of docs/ is linked from README.md', () => {
    const linked = new Set(linkTargets(read('README.md')).map((target) => target.split('#')[0]));
    const pages = docFiles().filter((file) => file.startsWith('docs/'));
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  test('each doc page opens with its title and a summary of at most two lines', () => {
    for (const file of docFiles().filter((name) => name.startsWith('docs/'))) {
      const [title, blank, ...rest] = read(file).split('\n');
      expect(title, file).toMatch(/^# /);
      expect(blank, file).toBe('');
      const summary = rest.slice(0, rest.indexOf(''));
      expect(summary.length, `${file}: the summary under the title`).toBeGreaterThanOrEqual(1);
      expect(summary.length, `${file}: the summary under the title`).toBeLessThanOrEqual(2);
    }
  });
});

describe('the checks themselves', () => {
  test('slugs follow GitHub', () => {
    const slugs = headingSlugs(
      '# A B\n## oauth2-proxy in front (`--upstream`)\n```\n# not a heading\n```\n## A B\n## config.json\n',
    );
    expect([...slugs]).toEqual(['a-b', 'oauth2-proxy-in-front---upstream', 'a-b-1', 'configjson']);
  });

  test('a link to a missing file or heading is broken; code and absolute URLs are not links', () => {
    const markdown = [
      '# Here',
      '[ok](#here) [gone](#nowhere) [file](docs/nope.md) [web](https://example.com/x.md)',
      '`[code](nope.md)` [readme](README.md#questions-inbox) [bad](README.md#nope)',
    ].join('\n');
    expect(brokenLinks('x.md', markdown)).toEqual([
      '#nowhere (no heading #nowhere in x.md)',
      'docs/nope.md (no file docs/nope.md)',
      'README.md#nope (no heading #nope in README.md)',
    ]);
  });

  test('the env scan follows helpers and templates, and refuses what it cannot follow', () => {
    const source = [
      'const env = process.env;',
      "const a = env.ALPHA; const b = process.env['BETA'];",
      'function num(name: string) { return env[name]; }',
      "num('GAMMA');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text the scan reads
      "function url(system = 'ONE') { return env[`${system}_URL`]; }",
      "url(); url('TWO');",
    ].join('\n');
    expect([...envReads(source)].sort()).toEqual(['ALPHA', 'BETA', 'GAMMA', 'ONE_URL', 'TWO_URL']);
    expect(() => envReads('function f(x) { return env[x]; }\nf(other);')).toThrow(/not written/);
    expect(() => envReads('const k = 1; env[k + 1];')).toThrow(/cannot follow/);
  });
});
