import { Alert, Anchor, Box, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { wizardProgress, type WizardPage } from '../../../shared/forms/field-definition.ts';
import { type ApplicationView, type WizardBylaws } from './api.ts';
import { type DraftSave } from './use-draft-save.ts';
import classes from './wizard.module.css';

/** The step list: every page's label, the active page marked, and only the active page's description (docs/requirements/screens.md). */
export function StepList({ pages, page }: { pages: WizardPage[]; page: number }) {
  return (
    <Box component="nav" aria-label="Application steps">
      <ol className={classes.steps}>
        {pages.map((p, i) => {
          const n = i + 1;
          const active = n === page;
          return (
            <li
              key={n}
              className={classes.step}
              aria-current={active ? 'step' : undefined}
              data-state={n < page ? 'done' : active ? 'active' : 'todo'}
            >
              <span className={classes.stepNumber} aria-hidden>
                {n}
              </span>
              <div>
                <Text size="sm" fw={active ? 700 : 500}>
                  {p.label}
                </Text>
                {active && p.description && (
                  <Text size="xs" c="gray.7" mt={2}>
                    {p.description}
                  </Text>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </Box>
  );
}

/** docs/requirements/behaviour.md: "Did you start the wrong application?" with the way to switch type, keeping shared answers. */
export function WrongApplicationNotice({
  app,
  busy,
  onSwitch,
}: {
  app: ApplicationView;
  busy: boolean;
  onSwitch?: () => void;
}) {
  const other = app.type === 'maintain' ? 'start-up' : 'maintain';
  return (
    <Alert color="orange" variant="light" title="Did you start the wrong application?" role="alert">
      <Stack gap="xs">
        <Text size="sm">
          Standard start-up accounts include getting your group tax exempt. Maintain accounts are for groups that
          already have a tax exemption and want to keep it, and for groups that have applied and are waiting for the IRS
          letter.
        </Text>
        {onSwitch && (
          <Group>
            <Button size="xs" variant="white" color="orange" onClick={onSwitch} loading={busy}>
              Switch to the {other} application
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

/** The quiet line under the buttons saying whether the answers typed are saved (docs/wizard.md "Saving as you type"). */
export function DraftStatusLine({ draft }: { draft: DraftSave }) {
  return (
    <Text size="sm" c={draft.status === 'failed' ? 'red.8' : 'gray.7'} ta="right" aria-live="polite" mih="1.5em">
      {draft.status === 'saving' && 'Saving…'}
      {draft.status === 'saved' && 'Saved'}
      {draft.status === 'failed' && (
        <>
          Not saved —{' '}
          <Anchor component="button" type="button" size="sm" inherit onClick={() => void draft.flush()}>
            retry
          </Anchor>
        </>
      )}
    </Text>
  );
}

/** The bylaws step's Word document (docs/wizard.md "The bylaws step"): its download, or how to make it. */
export function BylawsDocument({
  bylaws,
  onMake,
  busy,
}: {
  bylaws: WizardBylaws | null;
  onMake?: () => void;
  busy: boolean;
}) {
  return (
    <Alert color={bylaws ? 'green' : 'blue'} variant="light" title="Your bylaws document">
      <Stack gap="xs">
        {bylaws ? (
          <Text size="sm">
            Written from the answers on this page when you last saved it.{' '}
            <Anchor href={bylaws.download_url} inherit fw={600}>
              Download {bylaws.file_name}
            </Anchor>
          </Text>
        ) : (
          <Text size="sm">We write your bylaws as a Word document from these answers when you save this page.</Text>
        )}
        {onMake && (
          <Group>
            <Button size="xs" variant="default" onClick={onMake} loading={busy}>
              {bylaws ? 'Update my bylaws document' : 'Make my bylaws document'}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

/** What the wizard is busy with: a page's save (Next, or the bylaws document), Submit, Delete or the switch of type. */
export type Saving = 'next' | 'make' | 'submit' | 'delete' | 'switch' | null;

/** "Step n of N", the percent done and the progress bar (docs/requirements/screens.md "Wizard"). */
export function WizardProgress({ page, count }: { page: number; count: number }) {
  const percent = wizardProgress(page, count);
  return (
    <Stack gap={6} mb="lg">
      <Group justify="space-between">
        <Text size="sm" fw={600}>
          Step {page} of {count}
        </Text>
        <Text size="sm" c="gray.7">
          {percent}% complete
        </Text>
      </Group>
      {/* The role sits on the root: at 0% the filled section has no width and would count as hidden. */}
      <Progress.Root
        size="md"
        role="progressbar"
        aria-label="Application progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
      >
        <Progress.Section value={percent} withAria={false} />
      </Progress.Root>
    </Stack>
  );
}

/**
 * The wizard's buttons (docs/requirements/behaviour.md "Wizard"): Cancel (deletes, after asking),
 * Previous (never checks), Next (checks and saves the page) or, on the last page, Submit (Locked
 * when the application can no longer change).
 */
export function WizardButtons(props: {
  page: number;
  isLast: boolean;
  locked: boolean;
  cancelable: boolean;
  isBroken: boolean;
  saving: Saving;
  pageHasErrors: boolean;
  onCancel: () => void;
  onPrevious: () => void;
}) {
  const { page, isLast, locked, cancelable, isBroken, saving, pageHasErrors, onCancel, onPrevious } = props;
  return (
    <Group justify="space-between" mt="sm">
      <Group gap="sm">
        {cancelable && !locked && (
          <Button
            variant="subtle"
            color="red"
            onClick={onCancel}
            disabled={isBroken || saving !== null}
            loading={saving === 'delete'}
          >
            Cancel
          </Button>
        )}
      </Group>
      <Group gap="sm">
        {page > 1 && (
          <Button variant="default" onClick={onPrevious} disabled={isBroken || saving !== null}>
            Previous
          </Button>
        )}
        {!isLast && (
          <Button
            type="submit"
            loading={saving === 'next'}
            disabled={isBroken || (saving !== null && saving !== 'next') || (pageHasErrors && !locked)}
          >
            Next
          </Button>
        )}
        {isLast &&
          (locked ? (
            <Button disabled>Locked</Button>
          ) : (
            <Button
              type="submit"
              color="green"
              loading={saving === 'submit'}
              disabled={isBroken || (saving !== null && saving !== 'submit') || pageHasErrors}
            >
              Submit
            </Button>
          ))}
      </Group>
    </Group>
  );
}
