/**
 * Text boxes grow with their text through CSS (`field-sizing: content`) where the browser has it,
 * and through Mantine's autosize elsewhere. Autosize measures the box in a layout effect, which
 * forces a style and layout pass of the whole page while the drawer opens (30–65 ms with 10,000
 * questions in the list, measured in bench/scale.ts) and again on every keystroke.
 */
export const cssGrows =
  typeof CSS !== 'undefined' &&
  typeof CSS.supports === 'function' &&
  CSS.supports('field-sizing', 'content');
