import { Anchor, Input, List, Loader, Text } from '@mantine/core';
import { useId, useRef, useState, type ReactNode } from 'react';
import { HttpFailure, uploadTo } from '../../lib/http.ts';
import classes from './schema-form.module.css';
import type { FieldDefinition } from '../../../shared/forms/field-definition.ts';
import type { SchemaFormState } from './schema-values.ts';

/** An uploaded file as the server lists it (docs/requirements/entities.md `file_uploads`). */
export interface FileUpload {
  file_name: string;
  [key: string]: unknown;
}

const isUpload = (x: unknown): x is FileUpload =>
  !!x && typeof x === 'object' && typeof (x as FileUpload).file_name === 'string';

/** The uploads listed in the form's `file_uploads` value. */
function fileUploadsOf(values: Record<string, unknown>): FileUpload[] {
  const list = values.file_uploads;
  return Array.isArray(list) ? list.filter(isUpload) : [];
}

/** The file entry in an upload answer: the body itself, or under `file_upload` / `file`. */
function uploadedEntry(res: unknown): FileUpload | null {
  if (isUpload(res)) return res;
  const r = (res ?? {}) as Record<string, unknown>;
  if (isUpload(r.file_upload)) return r.file_upload;
  if (isUpload(r.file)) return r.file;
  return null;
}

/**
 * The file dropbox field: a labelled file input that posts the chosen file as multipart (`file`)
 * to the definition's `action` with the CSRF header, then lists the form's `file_uploads` by
 * `file_name`. An answer carrying a whole `file_uploads` list replaces the list.
 */
export function DropboxField({
  def,
  state,
  disabled,
  label,
  description,
  required,
}: {
  def: FieldDefinition;
  state: SchemaFormState;
  disabled: boolean;
  label: string;
  description?: ReactNode;
  required: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const error = uploadError ?? state.errors[def.name];
  const uploads = fileUploadsOf(state.values);

  async function upload(file: File) {
    if (!def.action) return;
    setUploading(true);
    setUploadError(null);
    state.clearErrors([def.name]);
    try {
      const body = new FormData();
      body.append('file', file);
      const res = await uploadTo(def.action, body);
      const list = res !== null && typeof res === 'object' && 'file_uploads' in res ? res.file_uploads : undefined;
      if (Array.isArray(list)) state.mergeValues({ file_uploads: list.filter(isUpload) });
      else {
        const entry = uploadedEntry(res);
        if (entry) state.mergeValues({ file_uploads: [...uploads, entry] });
      }
    } catch (err) {
      const f = err instanceof HttpFailure ? err : null;
      setUploadError(f ? (Object.values(f.errors)[0]?.[0] ?? "That didn't work.") : "That didn't work.");
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  }

  return (
    <div className={classes.dropbox} data-error={error ? 'true' : undefined}>
      <Input.Label htmlFor={id} required={required}>
        {label}
      </Input.Label>
      {description && <Input.Description id={`${id}-description`}>{description}</Input.Description>}
      <input
        ref={input}
        id={id}
        type="file"
        className={classes.fileInput}
        disabled={disabled || uploading || !def.action}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={
          [description ? `${id}-description` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
        }
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) void upload(file);
        }}
      />
      {uploading && (
        <Text size="sm" mt={6} role="status">
          <Loader size="xs" mr={6} aria-hidden />
          Uploading…
        </Text>
      )}
      {error && (
        <Input.Error mt={4} id={`${id}-error`}>
          {error}
        </Input.Error>
      )}
      {uploads.length > 0 && (
        <>
          <Text size="xs" c="gray.7" mt="xs">
            Files received:
          </Text>
          <List size="sm">
            {uploads.map((u, i) => (
              <List.Item key={`${u.file_name}-${i}`}>
                {/* Entries with an id can be downloaded again from the same action. */}
                {def.action && typeof u.id === 'number' ? (
                  <Anchor href={`${def.action}/${u.id}`} download>
                    {u.file_name}
                  </Anchor>
                ) : (
                  u.file_name
                )}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </div>
  );
}
