/**
 * The code a page the server rendered needs before the app can take it over (the reader of its
 * lists, the parts it rendered) is named in its <head> (`<meta name="qi-first-screen-code">`,
 * server/render/part-preloads.ts). Asked for here, as the app's own code starts to run, so that
 * it downloads and compiles while the rest of that code runs (main.tsx asks for it by import()
 * only at the end), and never before the page's rows are drawn: it is not the first screen's.
 */
const BUILT_FILE = /^assets\/[\w.-]+\.js$/;

export function preloadFirstScreenCode(doc: Document): string[] {
  const names = doc.querySelector<HTMLMetaElement>('meta[name="qi-first-screen-code"]')?.content;
  const files = (names ?? '').split(' ').filter((file) => BUILT_FILE.test(file));
  for (const file of files) {
    const link = doc.createElement('link');
    link.rel = 'modulepreload';
    link.href = new URL(file, doc.baseURI).href;
    doc.head.append(link);
  }
  return files;
}

preloadFirstScreenCode(document);
