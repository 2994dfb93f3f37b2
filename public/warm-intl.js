// Questions Inbox: the browser's locale data, loaded in a worker while a page the server rendered
// is parsed (public/first-screen.js starts it). The first date formatter, relative time, sort or
// number a page asks for loads that data for the whole browser process, about 20 ms; done here, on
// another thread, the app's first render finds it loaded instead of waiting for it on the page's
// one thread. The formats are those the app uses as it starts (src/lib/format-time.ts, the list's
// sort and tag picker, its counts); nothing is sent back, and the worker ends.
try {
  new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long' }).format(0);
  new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(-3, 'minute');
  'a'.localeCompare('b');
  (1234).toLocaleString('en');
} finally {
  close();
}
