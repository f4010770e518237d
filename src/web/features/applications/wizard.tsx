import { Alert, Anchor, Button, Card, Grid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { applicationWizardContracts as contracts } from '../../../shared/contracts/application-wizard.ts';
import { type FieldDefinition } from '../../../shared/forms/field-definition.ts';
import { valueFields } from '../../../shared/forms/rules.ts';
import { fiscalYearRecordWarning } from '../../../shared/rules/wizard-answers.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { SchemaFields } from '../../components/schema-form/schema-field.tsx';
import {
  checkValues,
  initialValues,
  payloadOf,
  shownFieldNames,
  useSchemaValues,
} from '../../components/schema-form/schema-values.ts';
import { pushEvent } from '../../lib/analytics.ts';
import { confirmAction, toastFailure } from '../../lib/feedback.tsx';
import { call, HttpFailure, refusalOf } from '../../lib/http.ts';
import { keyOf } from '../../lib/queries.ts';
import {
  applicationPath,
  pageSavedOf,
  sitePath,
  submittedOf,
  WRONG_APPLICATION_FIELDS,
  type ApplicationView,
  type WizardBylaws,
} from './api.ts';
import { useDraftSave } from './use-draft-save.ts';
import {
  BylawsDocument,
  DraftStatusLine,
  StepList,
  WizardButtons,
  WizardProgress,
  WrongApplicationNotice,
  type Saving,
} from './wizard-parts.tsx';

/** A page past the last has no fields; one array for it keeps the memos below from rerunning. */
const NO_FIELDS: FieldDefinition[] = [];

/**
 * The wizard for one loaded application (keyed by token, so a switch starts it afresh): its pages'
 * fields, the draft saved while typing, Next, Submit, Delete and the switch of type
 * (docs/requirements/behaviour.md "Wizard").
 */
export function Wizard({ app }: { app: ApplicationView }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { config, token } = app;
  const pages = config.schemas;
  const count = pages.length;
  const allDefs = useMemo<FieldDefinition[]>(() => pages.flatMap((p) => p.schema), [pages]);
  const [page, setPage] = useState(() => Math.min(Math.max(1, Math.trunc(app.page) || 1), Math.max(1, count)));
  const state = useSchemaValues(() => initialValues(allDefs, config.fields));
  const [saving, setSaving] = useState<Saving>(null);
  const [broken, setBroken] = useState<string | false>(false);
  const [errorTick, setErrorTick] = useState(0);
  const [irsFiscalYear, setIrsFiscalYear] = useState(() => app.irs_fiscal_year ?? null);
  const heading = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const shownPage = useRef(page);

  const locked = !!config.is_disabled;
  const current = pages[page - 1];
  const defs = current?.schema ?? NO_FIELDS;
  const isLast = page >= count;
  // docs/wizard.md "Fiscal year and the IRS record": as the month is chosen, and again before Submit.
  const fiscalWarning =
    defs.some((d) => d.name === 'account___fiscal_year_end') || isLast
      ? fiscalYearRecordWarning(state.values.account___fiscal_year_end, irsFiscalYear)
      : null;

  const shown = useMemo(() => shownFieldNames(defs, state.values), [defs, state.values]);
  const pageHasErrors = shown.some((n) => state.errors[n]);
  const knownNames = useMemo(() => new Set(allDefs.map((d) => d.name)), [allDefs]);
  const stray = Object.entries(state.errors).find(([name]) => !knownNames.has(name))?.[1];
  const wrongApplication = WRONG_APPLICATION_FIELDS.some((n) => state.errors[n]);
  const isBroken = broken !== false;
  const disabled = locked || isBroken || saving !== null;
  const [bylaws, setBylaws] = useState<WizardBylaws | null>(app.bylaws ?? null);
  const isBylawsPage = defs.some((d) => d.name.startsWith('bylaw___'));
  const draft = useDraftSave({
    token,
    page,
    payload: useMemo(() => payloadOf(defs, state.values), [defs, state.values]),
    enabled: !locked && !isBroken && saving === null,
    onRefused: (failure) => fail(failure),
  });

  // A new page: back to the top, focus on its heading so screen readers announce it.
  useEffect(() => {
    if (shownPage.current === page) return;
    shownPage.current = page;
    window.scrollTo({ top: 0 });
    heading.current?.focus();
  }, [page]);

  // After a refused save: focus the first field in error.
  useEffect(() => {
    if (!errorTick) return;
    const el = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    el?.focus();
  }, [errorTick]);

  /** A failed save or delete (not a 422): toast, and the form is disabled (docs/requirements/errors.md). */
  const fail = (failure?: HttpFailure) => {
    toastFailure();
    // A refusal with its own reason (409: already submitted, EIN taken) shows that reason.
    setBroken(
      failure && failure.status >= 400 && failure.status < 500 && failure.status !== 422 ? failure.message : '',
    );
  };

  const next = () => savePage(true);

  /**
   * Checks and saves the page (Next). `advance` false stays on the page: the last page's
   * "Make my bylaws document", which saves the bylaws step without submitting.
   */
  async function savePage(advance: boolean) {
    if (isBroken || saving !== null || (advance && isLast)) return;
    if (locked) {
      if (advance) setPage(page + 1);
      return;
    }
    const pageNames = [...defs.map((d) => d.name), ...Object.keys(state.errors).filter((n) => !knownNames.has(n))];
    // The page's own rules first, with the server's messages: no round trip for a refusal.
    const local = checkValues(defs, state.values);
    if (Object.keys(local).length) {
      state.applyErrors(local, pageNames);
      setErrorTick((t) => t + 1);
      return;
    }
    // A draft save still on its way lands first.
    await draft.flush();
    setSaving(advance ? 'next' : 'make');
    try {
      const res = pageSavedOf(
        await call(contracts.savePage, { params: { token }, body: { page, ...payloadOf(defs, state.values) } }),
      );
      // Take what the server saved for this page (normalised) and values no page edits; keep
      // unsaved edits on other pages.
      const otherPages = new Set(valueFields(allDefs.filter((d) => !defs.includes(d))).map((d) => d.name));
      // An answer the server prefilled on another page (docs/wizard.md "Answers asked once") fills it while blank there.
      const blank = (k: string) => state.values[k] === undefined || state.values[k] === '';
      const saved = Object.fromEntries(
        Object.entries(res?.fields ?? {}).filter(([k]) => !otherPages.has(k) || blank(k)),
      );
      setIrsFiscalYear(res?.irs_fiscal_year ?? null);
      state.mergeValues(saved);
      draft.markSaved(page, payloadOf(defs, { ...state.values, ...saved }));
      state.clearErrors(defs.map((d) => d.name));
      if (res?.bylaws !== undefined) setBylaws(res.bylaws);
      if (advance) setPage(page + 1);
    } catch (err) {
      const failure = err instanceof HttpFailure ? err : new HttpFailure(0, String(err));
      if (failure.status === 422) {
        state.applyErrors(failure.errors, pageNames);
        setErrorTick((t) => t + 1);
      } else fail(failure);
    } finally {
      setSaving((s) => (s === 'next' || s === 'make' ? null : s));
    }
  }

  async function submit() {
    if (disabled) return;
    // Every page by its rules; the first page with an error is shown.
    const local: Record<string, string[]> = {};
    let firstBad = 0;
    pages.forEach((p, i) => {
      const errors = checkValues(p.schema, state.values);
      if (Object.keys(errors).length && !firstBad) firstBad = i + 1;
      Object.assign(local, errors);
    });
    if (firstBad) {
      state.applyErrors(local);
      setPage(firstBad);
      setErrorTick((t) => t + 1);
      return;
    }
    await draft.flush();
    setSaving('submit');
    try {
      const res = submittedOf(
        await call(contracts.savePage, { params: { token }, body: { submit: 1, ...payloadOf(allDefs, state.values) } }),
      );
      pushEvent('application_completed', {
        invoice_id: res.invoice_id,
        level_id: app.level.id,
        application_type: app.type,
      });
      window.location.assign(sitePath(res.redirect, '/app/payments'));
      // The busy state stays until the browser leaves.
    } catch (err) {
      setSaving(null);
      const failure = err instanceof HttpFailure ? err : new HttpFailure(0, String(err));
      if (failure.status === 422) {
        state.applyErrors(failure.errors);
        const target = Number(refusalOf(contracts.savePage, failure)?.page);
        if (Number.isInteger(target) && target >= 1 && target <= count) setPage(target);
        setErrorTick((t) => t + 1);
      } else fail(failure);
    }
  }

  async function cancel() {
    const ok = await confirmAction({
      title: 'Delete this application?',
      message:
        'Your answers will be deleted and cannot be recovered. You can start a new application from the pricing page at any time.',
      confirm: 'Delete application',
      cancel: 'Keep working',
    });
    if (!ok) return;
    setSaving('delete');
    try {
      const res = await call(contracts.remove, { body: { token } });
      navigate(sitePath(res?.redirect, '/pricing'));
    } catch (err) {
      setSaving(null);
      fail(err instanceof HttpFailure ? err : undefined);
    }
  }

  async function switchType() {
    if (!app.switch_url) return;
    setSaving('switch');
    try {
      const res = await call(contracts.switchType, { params: { token } });
      const target = sitePath(res?.redirect, applicationPath(res?.token ?? token));
      if (new URL(target, window.location.origin).pathname === window.location.pathname) {
        // Same address (the token is kept): load the switched application afresh.
        await queryClient.resetQueries({ queryKey: keyOf(contracts.show, { token }) });
      } else navigate(target);
    } catch (err) {
      setSaving(null);
      fail(err instanceof HttpFailure ? err : undefined);
    }
  }

  if (!current) {
    return (
      <>
        <PageHeader title={config.title || 'Your application'} />
        <Alert color="yellow">This application has no questions yet. Please contact us.</Alert>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={config.title || 'Your application'}
        lead={`${app.level.name} · ${app.type === 'maintain' ? 'Maintain' : 'Start-up'} application`}
      />
      <WizardProgress page={page} count={count} />
      {app.status === 'completed' && (
        <Alert color="green" mb="md">
          This application has been submitted. You can look through your answers but not change them.
        </Alert>
      )}
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <StepList pages={pages} page={page} />
          {bylaws && !isBylawsPage && (
            <Text size="sm" mt="md">
              Your bylaws:{' '}
              <Anchor href={bylaws.download_url} inherit>
                Download {bylaws.file_name}
              </Anchor>
            </Text>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Card withBorder padding="xl">
            <form
              ref={formRef}
              noValidate
              aria-label={current.label}
              aria-busy={saving !== null}
              onSubmit={(e) => {
                e.preventDefault();
                void (isLast ? (locked ? undefined : submit()) : next());
              }}
              onBlur={() => void draft.flush()}
            >
              <Stack gap="md">
                <Title order={2} size="h3" ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
                  {current.label}
                </Title>
                <SchemaFields defs={defs} state={state} disabled={disabled} linksInNewTab />
                {isBylawsPage && (
                  <BylawsDocument
                    bylaws={bylaws}
                    busy={saving === 'make'}
                    onMake={isLast && !locked && !isBroken ? () => void savePage(false) : undefined}
                  />
                )}
                {fiscalWarning && (
                  <Alert
                    color="orange"
                    variant="light"
                    title="Your fiscal year differs from the IRS record"
                    role="status"
                  >
                    {fiscalWarning}
                  </Alert>
                )}
                {wrongApplication && (
                  <WrongApplicationNotice
                    app={app}
                    busy={saving === 'switch'}
                    onSwitch={app.switch_url && !locked ? () => void switchType() : undefined}
                  />
                )}
                {stray && (
                  <Alert color="red" role="alert">
                    {stray}
                  </Alert>
                )}
                {pageHasErrors && !wrongApplication && (
                  <Text size="sm" c="red" role="status">
                    Please check the fields marked above.
                  </Text>
                )}
                {isLast && config.submission_alert && (
                  <Alert color="blue" variant="light">
                    {config.submission_alert}
                  </Alert>
                )}
                {isBroken && (
                  <Alert color="red" role="alert">
                    {broken || (
                      <>
                        Your answers could not be saved. Please reload the page and try again.{' '}
                        <Button size="compact-sm" variant="white" color="red" onClick={() => window.location.reload()}>
                          Reload
                        </Button>
                      </>
                    )}
                  </Alert>
                )}
                <WizardButtons
                  page={page}
                  isLast={isLast}
                  locked={locked}
                  cancelable={!!config.is_cancelable}
                  isBroken={isBroken}
                  saving={saving}
                  pageHasErrors={pageHasErrors}
                  onCancel={() => void cancel()}
                  onPrevious={() => {
                    void draft.flush();
                    setPage(page - 1);
                  }}
                />
                {!locked && <DraftStatusLine draft={draft} />}
              </Stack>
            </form>
          </Card>
        </Grid.Col>
      </Grid>
    </>
  );
}
