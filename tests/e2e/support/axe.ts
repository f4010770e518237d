import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, Result } from 'axe-core';
import type { Page } from 'playwright-core';

/** The WCAG 2.1 A/AA rules plus axe's best practices: what the "no violations" means. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One violation, shortened to what a reader needs to find and fix it. */
export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  /** The first few offending elements as CSS selectors. */
  targets: string[];
  count: number;
}

/** For a contrast failure, the colours and ratio axe measured: what to change in the theme. */
function colours(node: Result['nodes'][number]): string {
  const data = node.any.find((c) => c.id === 'color-contrast')?.data as
    { fgColor?: string; bgColor?: string; contrastRatio?: number; expectedContrastRatio?: string } | undefined;
  return data?.fgColor
    ? ` (${data.fgColor} on ${data.bgColor}: ${data.contrastRatio}, needs ${data.expectedContrastRatio})`
    : '';
}

/**
 * Runs axe-core in `page` over the whole document as it is now (after the caller waited for what
 * it wants checked to be on screen).
 * The script goes in through the DevTools protocol rather than a `<script>` tag, since the
 * site's CSP (docs/requirements/platform.md §5) refuses inline scripts, as it should.
 * @returns the violations, empty when the page passes
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(axeSource);
  const results = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run(ctx: Document, o: object): Promise<AxeResults> } }).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      }),
    AXE_TAGS,
  );
  return results.violations.map((v: Result) => ({
    id: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    targets: v.nodes.slice(0, 3).map((n) => n.target.map(String).join(' ') + colours(n)),
    count: v.nodes.length,
  }));
}

/** Readable report of findings for one labelled state, one line per rule; '' when there are none. */
function formatFindings(label: string, findings: AxeFinding[]): string {
  if (!findings.length) return '';
  const lines = findings.map((f) => `  - ${f.id} [${f.impact}] ${f.help} (${f.count}×): ${f.targets.join(' | ')}`);
  return `${label}\n${lines.join('\n')}`;
}

/**
 * Checks `page` with axe-core and adds a readable report to `failures` when anything is found,
 * so one test can visit many pages and show every problem at once.
 * @param label what was checked, e.g. "visitor /pricing"
 */
export async function collectAxe(page: Page, label: string, failures: string[]): Promise<void> {
  const report = formatFindings(label, await axeFindings(page));
  if (report) failures.push(report);
}
