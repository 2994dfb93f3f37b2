import { en } from 'zod/locales';
import { config } from 'zod/mini';

// zod 4 probes for eval with `new Function("")` when schemas are built; under the portal's
// Content-Security-Policy (no 'unsafe-eval') the browser reports that probe as a violation even
// though zod catches it. Jitless mode skips the probe. This module must be imported first.
config({ jitless: true });
// zod/mini (a fifth of zod's size) has no messages of its own: the config error page and the
// "unreadable record" flags name each problem in plain English.
config(en());
