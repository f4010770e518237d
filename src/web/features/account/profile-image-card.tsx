import { Anchor, Box, Button, Card, Group, Image, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { accountSettingsContracts } from '../../../shared/contracts/account-settings.ts';
import { ALLOWED_EXTENSIONS } from '../../../shared/rules/uploads.ts';
import { SingleFileDrop } from '../../components/single-file-drop.tsx';
import { toastSuccess } from '../../lib/feedback.tsx';
import { call, upload } from '../../lib/http.ts';
import { useFileUpload } from '../../lib/use-file-upload.ts';
import classes from './profile-image-card.module.css';
import type { ContractAnswer } from '../../../shared/contracts/contract.ts';

/** docs/requirements/entities.md "Profile account": id and the header image's address ('' when none). */
export type ProfileAccount = ContractAnswer<typeof accountSettingsContracts.clearImage>;

/**
 * The profile header image editor (docs/requirements/product.md tool 12): the current image or a sample, 'Clear image',
 * an uploader for jpeg, png or gif (each answer is the updated account), and a link to the public
 * profile.
 */
export function ProfileImageCard({
  account,
  onChange,
}: {
  account: ProfileAccount;
  onChange: (account: ProfileAccount) => void;
}) {
  const image = useFileUpload(
    (body) => upload(accountSettingsContracts.setImage, { params: { id: String(account.id) } }, body),
    {
      onDone: (updated) => {
        onChange(updated);
        toastSuccess('Your header image was saved.');
      },
    },
  );
  const clear = () =>
    image.busyWhile(async () =>
      onChange(await call(accountSettingsContracts.clearImage, { params: { id: String(account.id) } })),
    );

  return (
    <Card withBorder padding="xl" mt="lg" component="section" aria-labelledby="profile-image-title">
      <Stack gap="md">
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h3" id="profile-image-title">
            Profile header image
          </Title>
          <Anchor component={Link} to={`/app/account/show/${account.id}`}>
            View your public profile
          </Anchor>
        </Group>
        {account.public_profile_image ? (
          <Image src={account.public_profile_image} alt="Your profile header image" h={160} radius="md" fit="cover" />
        ) : (
          <Box className={classes.sample} role="img" aria-label="Sample header image">
            <Text fw={700} c="white" size="lg">
              Sample header
            </Text>
            <Text c="white" size="sm">
              Your team or chapter photo appears here on your public profile.
            </Text>
          </Box>
        )}
        <Group>
          {account.public_profile_image && (
            <Anchor component="button" type="button" c="red" onClick={() => void clear()} disabled={image.busy}>
              Clear image
            </Anchor>
          )}
        </Group>
        <SingleFileDrop
          label="New header image"
          file={image.file}
          onChange={image.choose}
          allowed={ALLOWED_EXTENSIONS.profile_image}
          accept={['image/jpeg', 'image/png', 'image/gif']}
          preview="image"
          error={image.error}
          disabled={image.busy}
          hint="JPEG, PNG or GIF, up to 5 MB. A wide picture (about 3:1) looks best."
        />
        <Group>
          <Button onClick={() => void image.upload()} disabled={!image.file} loading={image.busy}>
            Save header image
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
