import { Alert, Button, FileInput, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { groupHomeContracts } from '../../../shared/contracts/group-home.ts';
import { longDate } from '../../../shared/rules/compliance-calendar.ts';
import { ALLOWED_EXTENSIONS } from '../../../shared/rules/uploads.ts';
import { toastSuccess } from '../../lib/feedback.tsx';
import { upload } from '../../lib/http.ts';
import { keyOf } from '../../lib/queries.ts';
import { useFileUpload } from '../../lib/use-file-upload.ts';
import type { HomeSummary } from '../../../shared/schemas/home.ts';

const FORM_NAMES: Record<string, string> = { '1023': 'Form 1023', '1023-EZ': 'Form 1023-EZ', '1024': 'Form 1024' };

/**
 * The group applied to the IRS and awaits its determination letter (docs/wizard.md "A group
 * waiting for its IRS letter"): what is awaited, and the upload for the letter once it arrives;
 * once uploaded, that it waits for staff's review; when staff sent it back, their reason and the
 * upload again. Staff acting for the group see the state without the upload.
 */
export function LetterAwaited({
  letter,
  canUpload,
}: {
  letter: NonNullable<HomeSummary['letter_awaited']>;
  canUpload: boolean;
}) {
  const queryClient = useQueryClient();
  const letterUpload = useFileUpload((body) => upload(groupHomeContracts.uploadDeterminationLetter, {}, body), {
    showRefusal: true,
    onDone: async () => {
      toastSuccess('Thank you: we received your IRS letter.');
      await queryClient.invalidateQueries({ queryKey: keyOf(groupHomeContracts.home) });
    },
  });
  const form = FORM_NAMES[letter.form] ?? `Form ${letter.form}`;
  const filed = /^\d{4}-\d{2}-\d{2}$/.test(letter.filed_on) ? ` filed ${longDate(letter.filed_on)}` : '';

  if (letter.received_on) {
    return (
      <Alert color="blue" variant="light" title="IRS letter received">
        Your determination letter was uploaded on {longDate(letter.received_on)} and is waiting for our review. Thank
        you: there is nothing more to do for now; we will write to you once we have checked it.
      </Alert>
    );
  }
  return (
    <Alert
      color="orange"
      variant="light"
      title={letter.returned ? 'Please upload your IRS letter again' : 'Waiting for the IRS letter'}
    >
      <Stack gap="xs">
        {letter.returned && (
          <Text size="sm">
            We looked at the letter you sent and could not use it ({longDate(letter.returned.on)}):{' '}
            <Text span fw={600} size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {letter.returned.reason}
            </Text>
          </Text>
        )}
        <Text size="sm">
          {letter.returned
            ? `Please upload your determination letter for ${form}${filed} again here.`
            : `Your application to the IRS (${form}${filed}) is pending. When the determination letter arrives, send it to us here.`}{' '}
          Until then, the group’s annual return is still due by its date.
        </Text>
        {canUpload && (
          <>
            <FileInput
              label="Your IRS determination letter"
              value={letterUpload.file}
              onChange={letterUpload.choose}
              accept={ALLOWED_EXTENSIONS.application_document.map((e) => `.${e}`).join(',')}
              error={letterUpload.error}
              disabled={letterUpload.busy}
              description="PDF, JPEG, PNG or Word, up to 20 MB."
              clearable
            />
            <Group>
              <Button
                size="xs"
                onClick={() => void letterUpload.upload()}
                disabled={!letterUpload.file}
                loading={letterUpload.busy}
              >
                Upload the letter
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Alert>
  );
}
