import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 8 keeps white text on filled buttons above 4.5:1 in both schemes.
  primaryShade: { light: 8, dark: 8 },
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif',
  fontFamilyMonospace:
    'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    // Their scroll lock injects a <style> tag, which the CSP forbids; app.css locks scroll instead.
    // Plain objects, not Drawer.extend(): that would pull both into the initial download.
    Drawer: { defaultProps: { lockScroll: false } },
    Modal: { defaultProps: { lockScroll: false } },
  },
});
