import { useState } from 'react';
import { Alert, Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { HttpFailure, http } from '../../lib/http.ts';
import { toastFailure, toastSuccess } from '../../lib/feedback.tsx';
import { longDate } from '../../../shared/rules/compliance-calendar.ts';
import { ALLOWED_EXTENSIONS } from '../../../shared/rules/uploads.ts';
import type { HomeSummary } from '../../../shared/schemas/home.ts';

const FORM_NAMES: Record<string, string> = { '1023': 'Form 1023', '1023-EZ': 'Form 1023-EZ', '1024': 'Form 1024' };

/**
 * The group applied to the IRS and awaits its determination letter (docs/wizard.md "A group
 * waiting for its IRS letter"): what is awaited, and the upload for the letter once it arrives.
 * Staff acting for the group see the state without the upload.
 */
export function LetterAwaited({ letter, canUpload }: { letter: NonNullable<HomeSummary['letter_awaited']>; canUpload: boolean }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const form = FORM_NAMES[letter.form] ?? `Form ${letter.form}`;
  const filed = /^\d{4}-\d{2}-\d{2}$/.test(letter.filed_on) ? ` filed ${longDate(letter.filed_on)}` : '';

  const upload = async () => {
    if (!file) return;
    setBusy(true);
    setError(undefined);
    try {
      const body = new FormData();
      body.append('file', file, file.name);
      await http.post('/api/app/determination-letter', body);
      setFile(null);
      toastSuccess('Thank you: we received your IRS letter.');
      await queryClient.invalidateQueries({ queryKey: ['app-home'] });
    } catch (err) {
      const failure = err instanceof HttpFailure ? err : null;
      setError(failure?.errors.file?.[0] ?? (failure && failure.status !== 422 ? failure.message : undefined));
      toastFailure();
    } finally {
      setBusy(false);
    }
  };

  if (letter.received_on) {
    return (
      <Alert color="blue" variant="light" title="IRS letter received">
        Your determination letter was uploaded on {longDate(letter.received_on)}. Thank you: there is nothing more to do for now.
      </Alert>
    );
  }
  return (
    <Alert color="orange" variant="light" title="Waiting for the IRS letter">
      <Stack gap="xs">
        <Text size="sm">
          Your application to the IRS ({form}{filed}) is pending. When the determination letter arrives, send it to us here.
          Until then, the group’s annual return is still due by its date.
        </Text>
        {canUpload && (
          <>
            <FileInput
              label="Your IRS determination letter"
              value={file}
              onChange={(f) => { setFile(f); setError(undefined); }}
              accept={ALLOWED_EXTENSIONS.application_document.map((e) => `.${e}`).join(',')}
              error={error}
              disabled={busy}
              description="PDF, JPEG, PNG or Word, up to 20 MB."
              clearable
            />
            <Group>
              <Button size="xs" onClick={() => void upload()} disabled={!file} loading={busy}>Upload the letter</Button>
            </Group>
          </>
        )}
      </Stack>
    </Alert>
  );
}
