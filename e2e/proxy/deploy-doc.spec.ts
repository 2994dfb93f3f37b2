// docs/deploy.md shows the nginx configurations verbatim: the copy people paste must be the file
// the other tests in this folder run. (No browser and no nginx needed.)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { placeholdersOf, renderNginxConfig } from '../../deploy/nginx/render';
import { expect, test } from './fixtures';
import { repoRoot } from './harness';

const doc = () => readFileSync(path.join(repoRoot, 'docs/deploy.md'), 'utf8');

/** The ```nginx block between `<!-- BEGIN file … -->` and `<!-- END file -->`. */
function copyInDoc(markdown: string, file: string): string | null {
  const begin = markdown.indexOf(`<!-- BEGIN ${file}`);
  const end = markdown.indexOf(`<!-- END ${file} -->`, begin);
  if (begin < 0 || end < 0) return null;
  const section = markdown.slice(begin, end);
  const match = /```nginx\n([\s\S]*?)\n```/.exec(section);
  return match ? `${match[1]}\n` : null;
}

for (const file of [
  'deploy/nginx/questions-inbox.conf',
  'deploy/nginx/questions-inbox-inner.conf',
]) {
  test(`docs/deploy.md shows ${file} exactly`, () => {
    const actual = readFileSync(path.join(repoRoot, file), 'utf8');
    const copy = copyInDoc(doc(), file);
    expect(copy, `docs/deploy.md has no BEGIN/END block for ${file}`).not.toBeNull();
    expect(copy, `docs/deploy.md's copy of ${file} differs: paste the file into it`).toBe(actual);
  });
}

test('the placeholders are the documented ones, and render refuses a missing one', () => {
  const main = readFileSync(path.join(repoRoot, 'deploy/nginx/questions-inbox.conf'), 'utf8');
  expect(placeholdersOf(main).sort()).toEqual(
    [
      'API_TOKEN',
      'API_UPSTREAM',
      'AUTH_UPSTREAM',
      'DIST',
      'FRAME_ANCESTORS',
      'LISTEN',
      'PREFIX',
      'PREFIX_BARE',
      'SERVER_NAME',
    ].sort(),
  );
  for (const name of placeholdersOf(main)) expect(main).toContain(`#   __${name}__`);
  expect(() => renderNginxConfig(main, { PREFIX: '/agents/inbox/' })).toThrow(/No value for/);
  expect(() =>
    renderNginxConfig('listen __LISTEN__;', { LISTEN: '80; include /etc/passwd' }),
  ).toThrow(/must not contain/);
});
