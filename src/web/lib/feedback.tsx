import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { whenOverlays } from './overlays-ready.ts';

/** The toast's close button, named for screen readers (Mantine leaves it unnamed). */
export const CLOSE_LABEL = { 'aria-label': 'Close message' };

/** Toast 'Uh oh!' / "That didn't work." (docs/requirements/errors.md), or another message under the same title. */
export function toastFailure(message = "That didn't work.", title = 'Uh oh!') {
  notifications.show({
    title,
    message,
    color: 'red',
    withBorder: true,
    autoClose: 6000,
    closeButtonProps: CLOSE_LABEL,
  });
}

/** Toast 'Success!' with a message, e.g. 'Your data was saved.' (docs/requirements/errors.md). */
export function toastSuccess(message: string, title = 'Success!') {
  notifications.show({ title, message, color: 'green', withBorder: true, closeButtonProps: CLOSE_LABEL });
}

/** The dialog 'Success!' of the contact-type forms (docs/requirements/errors.md). */
export function successDialog(message: string, title = 'Success!') {
  whenOverlays(() =>
    modals.open({
      title: (
        <Text fw={700} size="lg">
          {title}
        </Text>
      ),
      children: <Text>{message}</Text>,
      centered: true,
    }),
  );
}

/**
 * A confirmation before a destructive action (or, with `confirmColor`, before going on after a
 * notice); resolves true when confirmed.
 */
export function confirmAction(opts: {
  title: string;
  message: string;
  confirm: string;
  cancel?: string;
  confirmColor?: string;
}): Promise<boolean> {
  return new Promise((resolve) => {
    whenOverlays(() =>
      modals.openConfirmModal({
        title: <Text fw={700}>{opts.title}</Text>,
        children: <Text>{opts.message}</Text>,
        labels: { confirm: opts.confirm, cancel: opts.cancel ?? 'Cancel' },
        confirmProps: { color: opts.confirmColor ?? 'red' },
        onConfirm: () => resolve(true),
        onCancel: () => resolve(false),
        onClose: () => resolve(false),
      }),
    );
  });
}
