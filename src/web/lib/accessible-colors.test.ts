import { DEFAULT_THEME, mergeMantineTheme, type MantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { accessibleColors, contrast } from './accessible-colors.ts';

/** The site's theme settings that matter here (src/web/main.tsx). */
const theme: MantineTheme = mergeMantineTheme(DEFAULT_THEME, {
  primaryColor: 'blue',
  primaryShade: 8,
  autoContrast: true,
});
const light = accessibleColors(theme).light as Record<string, string>;
/** A variable's colour, following `var(--mantine-color-x-n)` to the palette. */
const colour = (value: string): string => {
  const m = /^var\(--mantine-color-(\w+)-(\d)\)$/.exec(value);
  return m ? theme.colors[m[1]][Number(m[2])] : value;
};

describe('theme colours reach WCAG 2.1 AA text contrast (4.5:1)', () => {
  it('contrast is the WCAG ratio', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('dimmed and error text on white and on the page background', () => {
    for (const bg of [theme.white, theme.colors.gray[0]]) {
      expect(contrast(colour(light['--mantine-color-dimmed']), bg)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(colour(light['--mantine-color-error']), bg)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('links on white and on light-blue alerts', () => {
    expect(contrast(light['--mantine-color-anchor'], theme.white)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(light['--mantine-color-anchor'], theme.colors.blue[1])).toBeGreaterThanOrEqual(4.5);
  });

  it.each(Object.keys(DEFAULT_THEME.colors))(
    '%s: light badges and alerts, coloured text, outlines and white text on fills',
    (name) => {
      const shades = theme.colors[name];
      expect(contrast(light[`--mantine-color-${name}-light-color`], shades[1])).toBeGreaterThanOrEqual(4.5);
      expect(contrast(light[`--mantine-color-${name}-text`], theme.white)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(light[`--mantine-color-${name}-outline`], theme.white)).toBeGreaterThanOrEqual(4.5);
      // autoContrast puts white text on fills no lighter than the threshold, black on the others.
      const fill = light[`--mantine-color-${name}-filled`] ?? shades[8];
      const text = light[`--mantine-color-${name}-filled`] ? theme.white : theme.black;
      expect(contrast(text, fill)).toBeGreaterThanOrEqual(4.5);
    },
  );
});
