import { darken, getPrimaryShade, luminance, type CSSVariablesResolver, type MantineTheme } from '@mantine/core';

/** WCAG 2.1 AA for normal text is 4.5:1; a little margin keeps rounding from failing it. */
const TARGET = 4.6;

/** Contrast ratio of two colours (WCAG 2.1 definition), from 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** `color` darkened in 5 % steps until it reaches {@link TARGET} against `background`. */
function darkenUntilReadable(color: string, background: string): string {
  let out = color;
  for (let step = 1; contrast(out, background) < TARGET && step <= 20; step++) out = darken(color, step * 0.05);
  return out;
}

/**
 * Light-scheme CSS variables that bring Mantine's colours to WCAG 2.1 AA text contrast (1.4.3)
 * without changing the palette: dimmed and error text; links, also on light-blue alerts; for
 * every colour, the text of its "light" variant (badges, alerts) on its light background, and its
 * "filled" colour where white text goes on it (with `autoContrast`, darker text goes on light
 * fills, which already reads); text and outlines in a colour. Mantine's defaults reach 2.7:1 to 4.1:1 in those places.
 * @returns the variables for MantineProvider's `cssVariablesResolver` (merged over the defaults)
 */
export const accessibleColors: CSSVariablesResolver = (theme: MantineTheme) => {
  const shade = getPrimaryShade(theme, 'light');
  const primary = theme.colors[theme.primaryColor];
  const light: Record<string, string> = {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-anchor': darkenUntilReadable(primary[shade], primary[1]),
  };
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (!shades) continue;
    light[`--mantine-color-${name}-light-color`] = darkenUntilReadable(shades[9], shades[1]);
    const filled = shades[shade];
    const onWhite = darkenUntilReadable(filled, theme.white);
    // Text in a colour (c="orange") and outline buttons put the colour itself on white.
    light[`--mantine-color-${name}-text`] = onWhite;
    light[`--mantine-color-${name}-outline`] = onWhite;
    if (luminance(filled) <= theme.luminanceThreshold) light[`--mantine-color-${name}-filled`] = onWhite;
  }
  return { variables: {}, light, dark: {} };
};
