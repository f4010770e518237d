import { Card, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { routeAt } from '../../../shared/contracts/contract.ts';
import {
  CONTEST_TEXT,
  ENTRANT_TYPE_LABELS,
  ENTRANT_TYPES,
  needsMessageAndFile,
  type Contest,
} from '../../../shared/rules/contests.ts';
import { ALLOWED_EXTENSIONS } from '../../../shared/rules/uploads.ts';
import { CheckboxField } from '../../components/form-kit/checkbox-field.tsx';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { SelectField } from '../../components/form-kit/select-field.tsx';
import { TextareaField } from '../../components/form-kit/textarea-field.tsx';
import { useServerForm } from '../../components/form-kit/use-server-form.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { SingleFileDrop } from '../../components/single-file-drop.tsx';
import { toastFailure } from '../../lib/feedback.tsx';
import { HttpFailure, upload } from '../../lib/http.ts';
import { whenOverlays } from '../../lib/overlays-ready.ts';
import type { contestEntryContracts } from '../../../shared/contracts/contest-entry.ts';

/** What an entry answers (its contract; the photo and video contests answer alike). */
/** Where each contest's entries are posted (multipart, so the page sends them through `upload`). */
const ENTRY_ROUTE = {
  photo: routeAt<typeof contestEntryContracts.photo>('POST', '/contests/photo'),
  video: routeAt<typeof contestEntryContracts.video>('POST', '/contests/video'),
};

type Values = { organization: string; email: string; type: string; message: string; is_member: boolean; file: string };
const BLANK: Values = { organization: '', email: '', type: '', message: '', is_member: false, file: '' };
const TYPE_OPTIONS = ENTRANT_TYPES.filter((t) => t !== '').map((t) => [t, ENTRANT_TYPE_LABELS[t]] as const);

/** A dialog with a title, a text and a footer line (docs/requirements/errors.md "Contest"). */
function notice(title: string, text: string, footer: string, color: 'green' | 'yellow') {
  whenOverlays(() =>
    modals.open({
      title: (
        <Text fw={700} size="lg" c={color}>
          {title}
        </Text>
      ),
      children: (
        <Stack gap="xs">
          <Text>{text}</Text>
          <Text size="sm" c="dimmed">
            {footer}
          </Text>
        </Stack>
      ),
      centered: true,
    }),
  );
}

/**
 * A contest entry form (docs/requirements/product.md tool 4, docs/requirements/behaviour.md "Contest forms", docs/requirements/errors.md): posts multipart to its own page.
 * Photo: success resets the form; HTTP 401 shows 'Limit reached!'. Video: shows upload progress,
 * keeps organization, e-mail and the member box after success, and shows 'Limit!' when the entry
 * is past the counted three. Both: HTTP 429 (a daily upload quota or the per-minute limit) shows
 * the server's message in a notice, since it says when to try again.
 */
function ContestForm({ contest }: { contest: Contest }) {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const isVideo = contest === 'video';
  const kit = useServerForm<Values, (typeof contestEntryContracts)[Contest]>({
    route: ENTRY_ROUTE[contest],
    defaultValues: BLANK,
    // A 429 is shown in the page's notice below, with "Your entry was not sent."
    showsTooMany: false,
    // Loaded when the form is first used, so the page does not load zod first (docs/requirements/platform.md §6).
    loadSchema: () => import('../../../shared/schemas/contests.ts').then((m) => m.contestEntrySchema),
    keepOnClear: isVideo ? ['organization', 'email', 'is_member'] : [],
    send: async (values) => {
      if (!file && needsMessageAndFile(values.type))
        throw new HttpFailure(422, 'The file field is required.', { file: ['The file field is required.'] });
      const body = new FormData();
      body.append('organization', values.organization);
      body.append('email', values.email);
      body.append('type', values.type);
      body.append('message', values.message);
      body.append('is_member', values.is_member ? '1' : '0');
      if (file) body.append('file', file, file.name);
      setProgress(0);
      try {
        return await upload<(typeof contestEntryContracts)[Contest]>(ENTRY_ROUTE[contest], {}, body, setProgress);
      } finally {
        setProgress(null);
      }
    },
    onSuccess: (saved) => {
      setFile(null);
      if (isVideo && saved.has_max_submissions)
        notice(CONTEST_TEXT.limitTitle, CONTEST_TEXT.limit, CONTEST_TEXT.limitFooter, 'yellow');
      else notice('Success!', CONTEST_TEXT.received, CONTEST_TEXT.footer(contest), 'green');
    },
    onFailure: (failure) => {
      if (contest === 'photo' && failure.status === 401)
        notice(CONTEST_TEXT.limitReachedTitle, CONTEST_TEXT.limitReached, '', 'yellow');
      else if (failure.status === 429)
        notice('Upload limit reached', failure.message, 'Your entry was not sent.', 'yellow');
      else toastFailure();
    },
  });
  const strict = needsMessageAndFile(kit.form.watch('type'));

  return (
    <KitForm kit={kit} label={`${contest === 'photo' ? 'Photo' : 'Video'} contest entry`}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField name="organization" label="Organization" required autoComplete="organization" maxLength={255} />
        <TextField name="email" label="E-mail" type="email" required autoComplete="email" maxLength={255} />
      </SimpleGrid>
      <SelectField name="type" label="Type" required options={TYPE_OPTIONS} prompt={ENTRANT_TYPE_LABELS['']} />
      <TextareaField
        name="message"
        label="Message"
        required={strict}
        rows={3}
        maxLength={2000}
        placeholder={`Tell us about your ${contest === 'photo' ? 'photo' : 'video'}: who, where and when.`}
      />
      <SingleFileDrop
        label={contest === 'photo' ? 'Photo' : 'Video'}
        file={file}
        onChange={(f) => {
          setFile(f);
          kit.clearFieldError('file');
        }}
        allowed={ALLOWED_EXTENSIONS[contest === 'photo' ? 'contest_photo' : 'contest_video']}
        accept={contest === 'photo' ? ['image/*'] : ['video/*']}
        preview={contest === 'photo' ? 'image' : 'video'}
        refuseWhileChosen={isVideo}
        required={strict}
        error={kit.errorOf('file')}
        disabled={kit.submitting}
        hint={
          contest === 'photo'
            ? 'BMP, JPEG, PNG, SVG, WebP or GIF, up to 20 MB.'
            : 'MP4, MOV, OGG, MKV, WebM, MPEG and other video files, up to 500 MB.'
        }
      />
      <CheckboxField
        name="is_member"
        label="We are a current member"
        description="A self-declaration: members' entries are checked against our records."
      />
      {isVideo && progress !== null && (
        <Stack gap={4} role="status">
          <Text size="sm">{CONTEST_TEXT.uploading}</Text>
          <Progress value={Math.round(progress * 100)} aria-label="Upload progress" animated />
        </Stack>
      )}
      <SubmitButton>Submit entry</SubmitButton>
    </KitForm>
  );
}

function ContestPage({ contest }: { contest: Contest }) {
  return (
    <>
      <PageHeader
        title="Submit an entry."
        lead={
          contest === 'photo'
            ? 'Show us your team, club or chapter in action. Each organization or e-mail address can have three photos counted.'
            : 'Show us your team, club or chapter in action on video. Each organization or e-mail address can have three videos counted.'
        }
      />
      <Card withBorder padding="xl" maw={760}>
        <ContestForm contest={contest} />
      </Card>
    </>
  );
}

/** /contests/photo (docs/requirements/product.md tool 4). */
export function PhotoContestPage() {
  return <ContestPage contest="photo" />;
}

/** /contests/video (docs/requirements/product.md tool 4). */
export function VideoContestPage() {
  return <ContestPage contest="video" />;
}
