import { mkdtempSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classesStyled, classesUsed, createPartStyles } from './part-styles';

describe('the stylesheets a first screen links', () => {
  it('reads the classes a stylesheet styles and the ones a page uses', () => {
    expect(
      classesStyled('.a_1{color:red}.b-2 .c:hover,.d>span{x:url(./i.svg)}@media(x){.e{}}'),
    ).toEqual(new Set(['a_1', 'b-2', 'c', 'd', 'svg', 'e']));
    expect(classesUsed('<div class="a_1  b-2"><p data-class="no" class="e">x</p></div>')).toEqual(
      new Set(['a_1', 'b-2', 'e']),
    );
  });

  it('links the parts’ stylesheets the page uses, never index.html’s own again', async () => {
    const assets = mkdtempSync(path.join(os.tmpdir(), 'qi-assets-'));
    await mkdir(assets, { recursive: true });
    writeFileSync(path.join(assets, 'index-A1.css'), '.shell{}.pane{}');
    writeFileSync(path.join(assets, 'question-drawer-B2.css'), '.pane{display:grid}');
    writeFileSync(path.join(assets, 'Switch-C3.css'), '.m_switch{}');
    writeFileSync(path.join(assets, 'insights-page-D4.css'), '.chart{}');
    writeFileSync(path.join(assets, 'index-A1.js'), '.pane{}');
    const template = '<link rel="stylesheet" href="./assets/index-A1.css">';
    const styles = createPartStyles(assets);
    expect(
      await styles(template, '<div class="shell"><section class="pane m_switch"></section></div>'),
    ).toBe(
      '<link rel="stylesheet" href="./assets/Switch-C3.css" />\n    <link rel="stylesheet" href="./assets/question-drawer-B2.css" />',
    );
    expect(await styles(template, '<div class="shell"></div>')).toBe('');
  });

  it('links nothing when the build has no assets folder', async () => {
    const styles = createPartStyles(path.join(os.tmpdir(), 'qi-no-such-assets-folder'));
    expect(await styles('', '<div class="pane"></div>')).toBe('');
  });
});
