// Fills the __PLACEHOLDERS__ of the nginx configurations in this folder.
//
//   node --import tsx deploy/nginx/render.ts deploy/nginx/questions-inbox.conf \
//     SERVER_NAME=tools.example.com LISTEN='443 ssl' PREFIX=/agents/inbox/ \
//     DIST=/srv/questions-inbox/dist/ API_UPSTREAM=https://reflexio.internal \
//     API_TOKEN="$REFLEXIO_API_KEY" AUTH_UPSTREAM=http://127.0.0.1:4180 \
//     FRAME_ANCESTORS="'self'" > /etc/nginx/conf.d/questions-inbox.conf
//
// PREFIX_BARE is derived from PREFIX when not given. The end-to-end tests render the same files
// with this function, so what they check is what gets deployed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PLACEHOLDER = /__([A-Z][A-Z0-9_]*[A-Z0-9])__/g;

/** Comment lines keep their placeholders: they document what was filled in. */
const isComment = (line: string) => line.trimStart().startsWith('#');

/** The placeholder names the directives use, without the underscores (`PREFIX`, `DIST`, …). */
export function placeholdersOf(template: string): string[] {
  const names = template
    .split('\n')
    .filter((line) => !isComment(line))
    .flatMap((line) => [...line.matchAll(PLACEHOLDER)].map((match) => match[1] as string));
  return [...new Set(names)];
}

function checkValue(name: string, value: string): void {
  // Values land inside nginx directives and double-quoted strings.
  if (/[\r\n"{};$]/.test(value)) {
    throw new Error(`${name} must not contain newlines, '"', '{', '}', ';' or '$'`);
  }
  if ((name === 'PREFIX' || name === 'DIST') && !(value.startsWith('/') && value.endsWith('/'))) {
    throw new Error(`${name} must start and end with "/": ${JSON.stringify(value)}`);
  }
  if (/_UPSTREAM$/.test(name) && (!/^https?:\/\//.test(value) || value.endsWith('/'))) {
    throw new Error(`${name} must be an http(s) URL without a trailing slash: ${value}`);
  }
}

/**
 * Replaces every `__NAME__` outside comments with `values[NAME]`; a missing value or an unknown
 * name is an error.
 */
export function renderNginxConfig(template: string, values: Record<string, string>): string {
  const filled: Record<string, string> = { ...values };
  if (filled.PREFIX !== undefined && filled.PREFIX_BARE === undefined) {
    filled.PREFIX_BARE = filled.PREFIX.replace(/\/+$/, '');
  }
  const used = placeholdersOf(template);
  const missing = used.filter((name) => filled[name] === undefined);
  if (missing.length > 0) throw new Error(`No value for ${missing.join(', ')}`);
  const unknown = Object.keys(values).filter((name) => !used.includes(name));
  if (unknown.length > 0) throw new Error(`Not placeholders of this file: ${unknown.join(', ')}`);
  for (const name of used) checkValue(name, filled[name] as string);
  return template
    .split('\n')
    .map((line) =>
      isComment(line)
        ? line
        : line.replace(PLACEHOLDER, (whole, name: string) => filled[name] ?? whole),
    )
    .join('\n');
}

function main(argv: string[]): void {
  const [file, ...assignments] = argv;
  if (!file) {
    console.error('usage: render.ts <template.conf> NAME=value ...');
    process.exit(2);
  }
  const values: Record<string, string> = {};
  for (const assignment of assignments) {
    const at = assignment.indexOf('=');
    if (at <= 0) throw new Error(`Expected NAME=value, got ${assignment}`);
    values[assignment.slice(0, at)] = assignment.slice(at + 1);
  }
  process.stdout.write(renderNginxConfig(readFileSync(file, 'utf8'), values));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
