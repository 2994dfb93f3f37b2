const BIDI_CONTROLS: Record<string, string> = {
  '\u202a': 'LRE',
  '\u202b': 'RLE',
  '\u202c': 'PDF',
  '\u202d': 'LRO',
  '\u202e': 'RLO',
  '\u2066': 'LRI',
  '\u2067': 'RLI',
  '\u2068': 'FSI',
  '\u2069': 'PDI',
};
// Embeddings, overrides and isolates reorder the text around them; the marks (LRM, RLM, ALM),
// common in right-to-left writing, only settle the direction of neutral characters and are kept.
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text an agent or a reviewer wrote, with its invisible direction controls shown as what they
 * are: a right-to-left override makes `fdp.exe` read as `exe.pdf`. Each becomes a visible mark
 * such as `⟨RLO⟩`; what the text says is left as it is. Everywhere such text is shown: the list,
 * the question, its arguments, the filters' options, the trail, who is looking.
 */
export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROL, (control) => `⟨${BIDI_CONTROLS[control] ?? 'U+?'}⟩`);
}
