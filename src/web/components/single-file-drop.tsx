// The zone's styles come with the form, so the server's HTML of the zone is drawn right before
// its code (file-drop-zone.tsx) has arrived.
import '@mantine/dropzone/styles.css';
import { Button, Group, Image, Input, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Suspense, useEffect, useId, useState } from 'react';
import { formatFileSize } from '../../shared/rules/formats.ts';
import { checkFileName, ONE_AT_A_TIME } from '../../shared/rules/uploads.ts';
import { deferredComponent } from '../lib/deferred-component.tsx';
import { CLOSE_LABEL, toastFailure } from '../lib/feedback.tsx';
import type { FileRejection } from '@mantine/dropzone';

// The drop zone's code is a chunk of its own, loaded once the form is shown (docs/ARCHITECTURE.md
// "Initial JavaScript"); the server's render loads it first (src/web/entry-server.tsx).
const FileDropZone = deferredComponent(
  () => import('./file-drop-zone.tsx'),
  (m) => m.FileDropZone,
);

/** docs/requirements/constants.md: the video preview is taken at 25 % of its duration. */
const THUMBNAIL_AT = 0.25;

/**
 * A still of a video file at {@link THUMBNAIL_AT} of its duration, as a JPEG data URL.
 * @throws when the browser cannot decode the video
 */
function videoThumbnail(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    const done = (fn: () => void) => {
      URL.revokeObjectURL(url);
      video.removeAttribute('src');
      fn();
    };
    video.preload = 'metadata';
    video.muted = true;
    video.playsInline = true;
    video.onloadedmetadata = () => {
      video.currentTime = (Number.isFinite(video.duration) ? video.duration : 0) * THUMBNAIL_AT;
    };
    video.onseeked = () => {
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth || 320;
      canvas.height = video.videoHeight || 180;
      canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
      done(() => resolve(canvas.toDataURL('image/jpeg', 0.8)));
    };
    video.onerror = () => done(() => reject(new Error('This video cannot be previewed.')));
    video.src = url;
  });
}

const warnOneAtATime = () =>
  notifications.show({
    title: 'Uh oh!',
    message: ONE_AT_A_TIME,
    color: 'yellow',
    withBorder: true,
    closeButtonProps: CLOSE_LABEL,
  });

/**
 * A drop zone for exactly one file (docs/requirements/validation.md "Uploads"): several files give 'One at a time please!';
 * a refused name or type gives '{file} is not allowed.' (title 'Uh oh!'); clicking the zone does
 * nothing once a file is chosen, and with `refuseWhileChosen` a new drop is refused too. Shows an
 * image preview, or a still of a video at 25 % of its duration.
 */
export function SingleFileDrop({
  label,
  file,
  onChange,
  allowed,
  accept,
  preview,
  refuseWhileChosen = false,
  required,
  error,
  disabled,
  hint,
}: {
  label: string;
  file: File | null;
  onChange: (file: File | null) => void;
  /** Lower-case extensions the uploader takes (docs/requirements/validation.md). */
  allowed: readonly string[];
  /** MIME types for the file picker, e.g. ['image/*']. */
  accept: string[];
  preview: 'image' | 'video';
  refuseWhileChosen?: boolean;
  required?: boolean;
  error?: string;
  disabled?: boolean;
  hint?: string;
}) {
  const id = useId();
  // The preview belongs to the file it was made from, so a removed or replaced file shows none at once.
  const [made, setMade] = useState<{ of: File; url: string | null } | null>(null);
  const previewUrl = made && made.of === file ? made.url : null;

  useEffect(() => {
    if (!file) return undefined;
    if (preview === 'image') {
      const url = URL.createObjectURL(file);
      // The object URL lives exactly as long as this effect (revoked below), so it is made here, not in render.
      // eslint-disable-next-line react-hooks/set-state-in-effect -- the state is the external URL just created
      setMade({ of: file, url });
      return () => URL.revokeObjectURL(url);
    }
    let live = true;
    videoThumbnail(file).then(
      (still) => {
        if (live) setMade({ of: file, url: still });
      },
      () => {
        if (live) setMade({ of: file, url: null });
      },
    );
    return () => {
      live = false;
    };
  }, [file, preview]);

  const take = (files: File[]) => {
    if (files.length > 1) return warnOneAtATime();
    if (file && refuseWhileChosen) return warnOneAtATime();
    const chosen = files[0];
    if (!chosen) return undefined;
    const refused = checkFileName(chosen.name, allowed);
    if (refused) return toastFailure(refused);
    return onChange(chosen);
  };
  const reject = (rejections: FileRejection[]) => {
    if (rejections.length > 1) return warnOneAtATime();
    const name = rejections[0]?.file.name ?? 'This file';
    return toastFailure(`${name} is not allowed.`);
  };

  return (
    <Input.Wrapper id={id} label={label} required={required} error={error} description={hint}>
      <Stack gap="xs" mt={4}>
        {/* Until its code has arrived, a zone the browser drew itself is a box of the zone's height. */}
        <Suspense fallback={<div style={{ minHeight: 94 }} />}>
          <FileDropZone
            id={id}
            onDrop={take}
            onReject={reject}
            accept={accept}
            activateOnClick={!file}
            disabled={disabled}
            invalid={!!error}
            withHint={!!hint}
          >
            {/* The spaces between the lines keep their words apart where text is read as one string. */}
            <Stack id={`${id}-prompt`} align="center" gap={4} py="md" style={{ pointerEvents: 'none' }}>
              {file ? (
                <>
                  <Text fw={600}>{file.name}</Text>{' '}
                  <Text size="sm" c="dimmed">
                    {formatFileSize(file.size)} · Remove it below to choose another file.
                  </Text>
                </>
              ) : (
                <>
                  <Text fw={600}>Drag a file here or click to choose one</Text>{' '}
                  <Text size="sm" c="dimmed">
                    One file per entry
                  </Text>
                </>
              )}
            </Stack>
          </FileDropZone>
        </Suspense>
        {file && (
          <Group align="flex-start" gap="md">
            {previewUrl && (
              <Image src={previewUrl} alt={`Preview of ${file.name}`} h={120} w="auto" fit="contain" radius="sm" />
            )}
            <Button variant="subtle" color="red" size="compact-sm" onClick={() => onChange(null)} disabled={disabled}>
              Remove file
            </Button>
          </Group>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
