import '@mantine/core/styles.css';
import { createTheme, darken, Drawer, MantineProvider, Modal, type CSSVariablesResolver } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

// System fonts only: nothing is fetched from a font service.
const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  // Darker shades keep text on light and filled backgrounds above the WCAG AA contrast ratio.
  primaryShade: 8,
  components: {
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
  },
});

// Light variants (alerts, light buttons) and dimmed text use darker shades than Mantine's defaults,
// so small text keeps at least 4.5:1 contrast (axe checks it in the end-to-end tests).
const COLORS = ['red', 'green', 'yellow', 'orange', 'blue', 'indigo', 'teal', 'gray', 'grape', 'cyan', 'violet'];
const resolver: CSSVariablesResolver = (t) => {
  const dark = (color: string) => darken(t.colors[color][9], 0.25);
  return {
    variables: {},
    light: {
      '--mantine-color-dimmed': t.colors.gray[7],
      // A placeholder drawn as text (a file input with no file yet) is read by axe as text too.
      '--mantine-color-placeholder': t.colors.gray[7],
      ...Object.fromEntries(
        COLORS.flatMap((color) => ['light-color', 'outline', 'filled', 'text'].map((kind) => [`--mantine-color-${color}-${kind}`, dark(color)])),
      ),
    },
    dark: {},
  };
};

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={resolver}>
      <App />
    </MantineProvider>
  </StrictMode>,
);
