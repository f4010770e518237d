import '@mantine/dropzone/styles.css';
import { Alert, Card, Checkbox, Grid, List, Paper, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { adminRosterImportsContracts } from '../../../../shared/contracts/admin-roster-imports.ts';
import { adminUploadsContracts } from '../../../../shared/contracts/admin-uploads.ts';
import { formatFileSize, formatSizeLimit } from '../../../../shared/rules/formats.ts';
import { ALLOWED_EXTENSIONS, checkFileName } from '../../../../shared/rules/uploads.ts';
import { PageHeader } from '../../../components/page-header.tsx';
import { toastFailure } from '../../../lib/feedback.tsx';
import { HttpFailure, upload } from '../../../lib/http.ts';
import { keyOf, queryOf } from '../../../lib/queries.ts';
import { AdminNav } from '../admin-nav.tsx';
import { ImportReport, StagedRosterImport, RosterImports } from './roster-imports.tsx';
import type { GenericUploadResult } from '../../../../shared/schemas/generic-upload.ts';

/** Events the uploader broadcasts its answers on (docs/requirements/calls.md). */
const FILE_UPLOADED = 'file-uploaded';
const CLEAR_DRAGOVER = 'clear-dragover';

/**
 * The generic drag-and-drop uploader (docs/requirements/product.md tool 5, docs/requirements/entities.md "Generic upload", docs/requirements/errors.md "Uploader") for
 * admins: files of any type but programs and scripts, or CSV rosters that create one account per
 * row in the chosen group. Each drop is one POST; the answer is broadcast on 'file-uploaded' and
 * the drop's end on 'clear-dragover'. A failed upload is ignored here (the server logs it); only
 * the browser's own refusals show a message.
 */
export default function UploadsPage() {
  const options = useQuery({
    ...queryOf(adminUploadsContracts.options, {}),
  });
  const [createAccounts, setCreateAccounts] = useState(false);
  const [groupId, setGroupId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [groupError, setGroupError] = useState<string | null>(null);
  const client = useQueryClient();
  const titleId = useId();
  const hintId = useId();
  const maxBytes = options.data?.max_bytes;
  const maxFiles = options.data?.max_files ?? 20;

  async function send(files: File[]) {
    try {
      const allowed = createAccounts ? ALLOWED_EXTENSIONS.roster : ALLOWED_EXTENSIONS.any;
      for (const file of files) {
        const refused = checkFileName(file.name, allowed);
        if (refused) return toastFailure(refused, 'Uh oh!');
      }
      if (!files.length) return;
      const body = new FormData();
      body.append('create_new_accounts', createAccounts ? '1' : '0');
      body.append('profile_id', createAccounts && groupId ? groupId : '0');
      body.append('params', JSON.stringify({}));
      for (const file of files) body.append('uploads[]', file, file.name);
      setBusy(true);
      setGroupError(null);
      try {
        const data = await upload(adminUploadsContracts.upload, {}, body);
        window.dispatchEvent(new CustomEvent(FILE_UPLOADED, { detail: data }));
        if (data.roster_import) void client.invalidateQueries({ queryKey: keyOf(adminRosterImportsContracts.list) });
      } catch (err) {
        // docs/requirements/errors.md: a failed upload in the generic uploader is silently ignored, except the one
        // thing the admin must change before an IRS file can be staged: the group (its GEN).
        const groupMessage = err instanceof HttpFailure && err.status === 422 ? err.errors.profile_id?.[0] : undefined;
        if (groupMessage) setGroupError(groupMessage);
      } finally {
        setBusy(false);
      }
    } finally {
      window.dispatchEvent(new CustomEvent(CLEAR_DRAGOVER));
    }
  }

  function refuse(rejections: FileRejection[]) {
    const first = rejections[0];
    if (!first) return;
    const code = first.errors[0]?.code;
    if (code === 'too-many-files') toastFailure(`Please drop at most ${maxFiles} files at a time.`, 'Uh oh!');
    else if (code === 'file-too-large' && maxBytes)
      toastFailure(`${first.file.name} is larger than ${formatSizeLimit(maxBytes)}.`, 'Uh oh!');
    else toastFailure(`${first.file.name} is not allowed.`, 'Uh oh!');
    window.dispatchEvent(new CustomEvent(CLEAR_DRAGOVER));
  }

  const groupData = (options.data?.groups ?? []).map((g) => ({
    value: String(g.id),
    label: g.gen ? `${g.label} (GEN ${g.gen})` : g.label,
  }));

  return (
    <>
      <PageHeader title="Uploads" lead="Keep files for the team, or create accounts from a roster of organizations." />
      <AdminNav />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card withBorder padding="lg">
            <Stack>
              <Title order={2} size="h4">
                Upload
              </Title>
              <Checkbox
                label="Create new accounts from a roster"
                description="CSV files: columns name, email, city, state, ein (rows already known by EIN or e-mail are skipped), or an IRS EO BMF extract, which is staged as a preview for the group's GEN and written only when you confirm it."
                checked={createAccounts}
                onChange={(e) => setCreateAccounts(e.currentTarget.checked)}
              />
              {createAccounts && (
                <NativeSelect
                  label="Group"
                  description="The new accounts join this group. An IRS file takes only the rows of this group's GEN."
                  data={[{ value: '', label: 'No group' }, ...groupData]}
                  value={groupId ?? ''}
                  error={groupError}
                  onChange={(e) => {
                    setGroupId(e.currentTarget.value || null);
                    setGroupError(null);
                  }}
                  disabled={!options.data}
                />
              )}
              {options.isError && <Alert color="red">The groups could not be loaded.</Alert>}
              <Dropzone
                onDrop={(files) => void send(files)}
                onReject={refuse}
                maxSize={maxBytes}
                maxFiles={maxFiles}
                loading={busy}
                disabled={!options.data}
                role="button"
                // Named by all the words it shows, so the spoken name matches what is seen (WCAG 2.5.3).
                aria-labelledby={`${titleId} ${hintId}`}
                // The zone itself is the control; its file input is not displayed, so it is not a second one.
                inputProps={{ style: { display: 'none' } }}
                radius="md"
                p="xl"
              >
                <Stack align="center" gap={6} mih={140} justify="center" style={{ pointerEvents: 'none' }}>
                  <UploadIcon />
                  {/* The spaces keep the lines' words apart where the zone's text is read as one string. */}
                  <Text fw={600} ta="center" id={titleId}>
                    Drop files here or click to choose them
                  </Text>{' '}
                  <Dropzone.Accept>
                    <Text size="sm" c="blue.8" fw={600}>
                      Release to upload
                    </Text>
                  </Dropzone.Accept>{' '}
                  <Dropzone.Reject>
                    <Text size="sm" c="red" fw={600}>
                      Some of these files cannot be taken
                    </Text>
                  </Dropzone.Reject>{' '}
                  <Text size="sm" c="dimmed" ta="center" id={hintId}>
                    {createAccounts ? 'CSV or TXT rosters' : 'Any type except programs and scripts'}
                    {maxBytes ? `, up to ${formatSizeLimit(maxBytes)} each` : ''}, {maxFiles} at a time.
                  </Text>
                </Stack>
              </Dropzone>
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <UploadResults />
        </Grid.Col>
        <Grid.Col span={12}>
          <RosterImports />
        </Grid.Col>
      </Grid>
    </>
  );
}

function UploadIcon() {
  return (
    <svg
      width="40"
      height="40"
      viewBox="0 0 24 24"
      fill="none"
      stroke="var(--mantine-color-blue-6)"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
      <path d="M7 9l5-5 5 5" />
      <path d="M12 4v12" />
    </svg>
  );
}

/** The answers broadcast on 'file-uploaded' during this visit, newest first: stored files and the import report. */
function UploadResults() {
  const [results, setResults] = useState<GenericUploadResult[]>([]);
  useEffect(() => {
    const onUploaded = (e: Event) => {
      const detail = (e as CustomEvent<GenericUploadResult>).detail;
      if (detail && Array.isArray(detail.files)) setResults((r) => [detail, ...r].slice(0, 10));
    };
    window.addEventListener(FILE_UPLOADED, onUploaded);
    return () => window.removeEventListener(FILE_UPLOADED, onUploaded);
  }, []);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="upload-results-title">
      <Title order={2} size="h4" id="upload-results-title" mb="sm">
        Results
      </Title>
      <div aria-live="polite">
        {results.length === 0 && (
          <Text c="dimmed" py="lg" ta="center">
            Nothing uploaded yet. The outcome of each upload appears here.
          </Text>
        )}
        <Stack gap="lg">
          {results.map((r) => (
            <UploadResult key={r.files.map((f) => f.id).join('-')} result={r} />
          ))}
        </Stack>
      </div>
    </Card>
  );
}

function UploadResult({ result }: { result: GenericUploadResult }) {
  return (
    <Paper withBorder p="md" radius="md">
      {result.roster_import && <StagedRosterImport staged={result.roster_import} />}
      {result.import && (
        <Stack mt={result.roster_import ? 'md' : 0}>
          <ImportReport report={result.import} />
        </Stack>
      )}
      <Text size="sm" fw={600} mt={result.import || result.roster_import ? 'md' : 0}>
        Files stored
      </Text>
      <List size="sm" spacing={2} mt={4}>
        {result.files.map((f) => (
          <List.Item key={f.id}>
            {f.file_name}{' '}
            <Text span size="xs" c="dimmed">
              ({formatFileSize(f.size_bytes)})
            </Text>
          </List.Item>
        ))}
      </List>
    </Paper>
  );
}
