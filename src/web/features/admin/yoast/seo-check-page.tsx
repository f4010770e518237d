import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { useCallback, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { AdminNav } from '../admin-nav.tsx';
import { analyzePage, checkablePath, type Finding, type FindingLevel } from './seo-check.ts';

/** How long the page may take to render, and how long its DOM must stay still to count as rendered (ms). */
const RENDER_TIMEOUT_MS = 10_000;
const QUIET_MS = 600;

const LEVEL: Record<FindingLevel, { label: string; color: string }> = {
  problem: { label: 'Problem', color: 'red' },
  improve: { label: 'Improve', color: 'orange' },
  good: { label: 'Good', color: 'green' },
};

/**
 * Resolves when the framed page has rendered: its main heading is there and its DOM stopped
 * changing for QUIET_MS, or RENDER_TIMEOUT_MS passed (then it is checked as it is).
 */
function whenRendered(doc: Document): Promise<void> {
  return new Promise((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      observer.disconnect();
      clearTimeout(quiet);
      clearTimeout(limit);
      resolve();
    };
    const settle = () => {
      clearTimeout(quiet);
      quiet = setTimeout(() => (doc.querySelector('h1') ? done() : settle()), QUIET_MS);
    };
    const observer = new MutationObserver(settle);
    observer.observe(doc.documentElement, { childList: true, subtree: true, characterData: true });
    const limit = setTimeout(done, RENDER_TIMEOUT_MS);
    settle();
  });
}

/**
 * /admin/yoast/show?url={path} (docs/requirements/product.md "Staff console"): the on-page search-optimisation check of one page of the
 * site. The page is rendered in a hidden frame of this same site, then analyzePage reads it.
 */
export default function SeoCheckPage() {
  const [params] = useSearchParams();
  const path = checkablePath(params.get('url'));
  const frame = useRef<HTMLIFrameElement>(null);
  const [findings, setFindings] = useState<Finding[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [run, setRun] = useState(0);

  const onLoad = useCallback(async () => {
    const doc = frame.current?.contentDocument;
    if (!doc || !path) {
      setFailed(true);
      return;
    }
    await whenRendered(doc);
    setFindings(analyzePage(doc, new URL(path, window.location.origin).toString()));
  }, [path]);

  // Another page or another run starts from nothing: the frame below is keyed the same way.
  const runKey = `${path}-${run}`;
  const [shownRun, setShownRun] = useState(runKey);
  if (shownRun !== runKey) {
    setShownRun(runKey);
    setFindings(null);
    setFailed(false);
  }

  if (!path) {
    return (
      <>
        <PageHeader title="SEO check" />
        <AdminNav />
        <Alert color="red" title="Choose a page">
          Open this check from a page of the site (the "SEO check" link at the bottom of content pages), or give its
          path, e.g. /admin/yoast/show?url=/irs-form-990.
        </Alert>
      </>
    );
  }

  const counts = findings
    ? (['problem', 'improve', 'good'] as const).map((l) => [l, findings.filter((f) => f.level === l).length] as const)
    : [];
  return (
    <>
      <PageHeader title="SEO check" lead={`How search engines see ${path}.`} />
      <AdminNav />
      <Group mb="md">
        <Anchor href={path} target="_blank" rel="noopener">
          Open the page
        </Anchor>
        <Button
          variant="default"
          size="xs"
          onClick={() => setRun((n) => n + 1)}
          disabled={findings === null && !failed}
        >
          Check again
        </Button>
      </Group>
      {failed && (
        <Alert color="red" title="The page could not be checked">
          It did not load in the frame. Open it and try again.
        </Alert>
      )}
      {!findings && !failed && (
        <Group gap="sm" aria-live="polite">
          <Loader size="sm" aria-label="Checking" />
          <Text>Rendering and checking the page…</Text>
        </Group>
      )}
      {findings && (
        <Card withBorder padding="lg" component="section" aria-label="Findings">
          <Group gap="xs" mb="md">
            {counts.map(([level, n]) => (
              <Badge key={level} color={LEVEL[level].color} variant="light">
                {n} {LEVEL[level].label.toLowerCase()}
              </Badge>
            ))}
          </Group>
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {findings.map((f) => (
              <Group component="li" key={f.id} gap="sm" wrap="nowrap" align="flex-start">
                <Badge color={LEVEL[f.level].color} variant="light" w={90} style={{ flexShrink: 0 }}>
                  {LEVEL[f.level].label}
                </Badge>
                <Text>{f.text}</Text>
              </Group>
            ))}
          </Stack>
        </Card>
      )}
      <iframe
        key={runKey}
        ref={frame}
        src={path}
        title="Page being checked"
        aria-hidden="true"
        tabIndex={-1}
        onLoad={() => void onLoad()}
        onError={() => setFailed(true)}
        style={{ position: 'absolute', left: -10_000, top: 0, width: 1280, height: 900, border: 0 }}
      />
    </>
  );
}
