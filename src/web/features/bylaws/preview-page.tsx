import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { roman, type BylawsDocument, type Paragraph } from '../../../shared/bylaws/document.ts';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { HttpFailure } from '../../lib/http.ts';
import { queryOf } from '../../lib/queries.ts';
import classes from './bylaws.module.css';
import type { bylawContracts } from '../../../shared/contracts/bylaws.ts';

/** A paragraph's runs; answer runs are <mark>ed when the document is highlighted (is_highlighted). */
function Runs({ para, highlighted }: { para: Paragraph; highlighted: boolean }) {
  return (
    <>
      {para.map((r, i) =>
        r.answer && highlighted ? (
          <mark key={i} className={classes.answer}>
            {r.text}
          </mark>
        ) : (
          <span key={i}>{r.text}</span>
        ),
      )}
    </>
  );
}

/** The bylaws as HTML from the same document model the .docx is written from (docs/requirements/platform.md §1). */
function BylawsPreview({ doc }: { doc: BylawsDocument }) {
  const h = doc.highlighted;
  return (
    <article className={classes.document} aria-label="Bylaws document">
      <h1 className={classes.title}>
        <Runs para={doc.title} highlighted={h} />
      </h1>
      {doc.preamble.map((p, i) => (
        <p key={i}>
          <Runs para={p} highlighted={h} />
        </p>
      ))}
      {doc.articles.map((art) => (
        <section key={art.number}>
          <h2 className={classes.article}>
            Article {roman(art.number)}. {art.title}
          </h2>
          {art.sections.map((s, i) =>
            s.paragraphs.map((p, j) => (
              <p key={`${i}-${j}`} className={classes.paragraph}>
                {j === 0 && (
                  <strong>
                    Section {i + 1}. {s.title}.{' '}
                  </strong>
                )}
                <Runs para={p} highlighted={h} />
              </p>
            )),
          )}
        </section>
      ))}
      <h2 className={classes.certification}>
        <Runs para={doc.certification[0] ?? []} highlighted={h} />
      </h2>
      {doc.certification.slice(1).map((p, i) => (
        <p key={i}>
          <Runs para={p} highlighted={h} />
        </p>
      ))}
      <footer className={classes.footer}>{doc.footer}</footer>
    </article>
  );
}

/** /bylaws-generator/preview/:hash — the built-in HTML preview (docs/requirements/screens.md "View online", second choice). */
export default function BylawsPreviewPage() {
  const { hash = '' } = useParams();
  const query = useQuery({
    ...queryOf(routeAt<typeof bylawContracts.document>('GET', '/api/bylaws/:hash/document'), { params: { hash } }),
    retry: false,
  });
  if (query.isPending)
    return (
      <Stack align="center" py="xl">
        <Loader role="status" aria-label="Loading" />
      </Stack>
    );
  if (query.isError) {
    const missing = query.error instanceof HttpFailure && query.error.status === 404;
    return (
      <Alert
        color={missing ? 'yellow' : 'red'}
        title={missing ? 'We could not find these bylaws' : "That didn't work."}
      >
        <Anchor component={Link} to="/bylaws-generator">
          Create bylaws
        </Anchor>
      </Alert>
    );
  }
  const { document: doc, file_name } = query.data;
  return (
    <Stack gap="md">
      <Group justify="space-between" className={classes.noPrint}>
        <div>
          <Title order={1} size="h3">
            Bylaws preview
          </Title>
          <Text size="sm" c="gray.7">
            This is the same document as the Word file. Download it to edit the wording.
          </Text>
        </div>
        <Group>
          <Button
            component="a"
            href={`/bylaws-generator/download/${encodeURIComponent(hash)}`}
            download={file_name}
            title={file_name}
          >
            Download the Word file
          </Button>
          <Button variant="light" onClick={() => window.print()}>
            Print
          </Button>
        </Group>
      </Group>
      <Paper withBorder shadow="xs" p={{ base: 'md', sm: 48 }}>
        <BylawsPreview doc={doc} />
      </Paper>
    </Stack>
  );
}
