import { writeFileSync } from 'node:fs';
import { renderThemeCss } from '../src/app/theme-css';

const target = new URL('../src/styles/theme.generated.css', import.meta.url);
writeFileSync(target, renderThemeCss());
console.log(`Wrote ${target.pathname}`);
