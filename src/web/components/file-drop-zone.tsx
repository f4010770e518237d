import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { useHydrated } from '../lib/use-hydrated.ts';
import type { ReactNode } from 'react';

/**
 * The drop zone of {@link import('./single-file-drop.tsx').SingleFileDrop}, a chunk of its own:
 * Mantine's dropzone and react-dropzone are not needed to show the form, so the page's first
 * screen loads without them and React takes the zone over once they have arrived
 * (docs/ARCHITECTURE.md "Initial JavaScript"). Its styles come with the form (single-file-drop.tsx).
 * Until this code runs in the browser, the zone the server drew answers no click: it says so as
 * `aria-disabled`, like the form's fields (src/web/components/form-kit/hydration-fieldset.tsx).
 */
export function FileDropZone({
  id,
  onDrop,
  onReject,
  accept,
  activateOnClick,
  disabled,
  invalid,
  withHint,
  children,
}: {
  /** The field's id: the hidden file input's, and the prefix of its label, prompt and hint ids. */
  id: string;
  onDrop: (files: File[]) => void;
  onReject: (rejections: FileRejection[]) => void;
  accept: string[];
  activateOnClick: boolean;
  disabled?: boolean;
  invalid: boolean;
  withHint: boolean;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <Dropzone
      onDrop={onDrop}
      onReject={onReject}
      accept={accept}
      // Counting is ours: several files at once must say 'One at a time please!', not pick one.
      multiple
      activateOnClick={activateOnClick}
      disabled={disabled}
      // The zone itself is the control people use: a button named by the field's label and
      // the words it shows (a spoken name that matches what is seen, WCAG 2.5.3).
      role="button"
      aria-labelledby={`${id}-label ${id}-prompt`}
      // A button cannot be aria-invalid; the field's error (Input.Wrapper's `${id}-error`) is read with it.
      aria-describedby={
        [withHint && `${id}-description`, invalid && `${id}-error`].filter(Boolean).join(' ') || undefined
      }
      aria-disabled={disabled || !hydrated || undefined}
      // Not displayed, so the button holds no second focusable control; clicks still open it.
      inputProps={{ id, style: { display: 'none' } } as never}
    >
      {children}
    </Dropzone>
  );
}
