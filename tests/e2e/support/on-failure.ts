import { beforeEach } from 'vitest';
import { describeOpenPages } from './browser.ts';

// A failed browser test says where each open page was and what it showed, so a failure seen only
// in CI's output can be read without running it again (docs/ARCHITECTURE.md "Tests").
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    const lines = await describeOpenPages(task.name);
    if (lines.length) console.error(`Pages open when "${task.name}" failed:\n${lines.join('\n')}`);
  });
});
