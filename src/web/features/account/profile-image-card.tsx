import { useState } from 'react';
import { Anchor, Box, Button, Card, Group, Image, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ALLOWED_EXTENSIONS } from '../../../shared/rules/uploads.ts';
import { SingleFileDrop } from '../../components/single-file-drop.tsx';
import { HttpFailure, http } from '../../lib/http.ts';
import { toastFailure, toastSuccess } from '../../lib/feedback.tsx';
import classes from './profile-image-card.module.css';

/** docs/requirements/entities.md "Profile account". */
export interface ProfileAccount {
  id: number;
  public_profile_image: string;
}

/**
 * The profile header image editor (docs/requirements/product.md tool 12): the current image or a sample, 'Clear image',
 * an uploader for jpeg, png or gif (each answer is the updated account), and a link to the public
 * profile.
 */
export function ProfileImageCard({ account, onChange }: { account: ProfileAccount; onChange: (account: ProfileAccount) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const upload = async () => {
    if (!file) return;
    setBusy(true);
    setError(undefined);
    try {
      const body = new FormData();
      body.append('file', file, file.name);
      onChange(await http.post<ProfileAccount>(`/app/account/image/${account.id}`, body));
      setFile(null);
      toastSuccess('Your header image was saved.');
    } catch (err) {
      const failure = err instanceof HttpFailure ? err : null;
      setError(failure?.errors.file?.[0]);
      toastFailure();
    } finally {
      setBusy(false);
    }
  };
  const clear = async () => {
    setBusy(true);
    try {
      onChange(await http.post<ProfileAccount>(`/app/account/empty-image/${account.id}`));
    } catch {
      toastFailure();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder padding="xl" mt="lg" component="section" aria-labelledby="profile-image-title">
      <Stack gap="md">
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h3" id="profile-image-title">Profile header image</Title>
          <Anchor component={Link} to={`/app/account/show/${account.id}`}>View your public profile</Anchor>
        </Group>
        {account.public_profile_image ? (
          <Image src={account.public_profile_image} alt="Your profile header image" h={160} radius="md" fit="cover" />
        ) : (
          <Box className={classes.sample} role="img" aria-label="Sample header image">
            <Text fw={700} c="white" size="lg">Sample header</Text>
            <Text c="white" size="sm">Your team or chapter photo appears here on your public profile.</Text>
          </Box>
        )}
        <Group>
          {account.public_profile_image && (
            <Anchor component="button" type="button" c="red" onClick={clear} disabled={busy}>Clear image</Anchor>
          )}
        </Group>
        <SingleFileDrop
          label="New header image"
          file={file}
          onChange={(f) => { setFile(f); setError(undefined); }}
          allowed={ALLOWED_EXTENSIONS.profile_image}
          accept={['image/jpeg', 'image/png', 'image/gif']}
          preview="image"
          error={error}
          disabled={busy}
          hint="JPEG, PNG or GIF, up to 5 MB. A wide picture (about 3:1) looks best."
        />
        <Group>
          <Button onClick={upload} disabled={!file} loading={busy}>Save header image</Button>
        </Group>
      </Stack>
    </Card>
  );
}
