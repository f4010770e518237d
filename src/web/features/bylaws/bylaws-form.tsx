import {
  Alert,
  Anchor,
  Button,
  Card,
  Fieldset,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { SCHOOL_CLAUSE_LABELS } from '../../../shared/bylaws/document.ts';
import { SCHOOL_CLAUSES, type BylawVariant } from '../../../shared/bylaws/variants.ts';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { CheckboxField } from '../../components/form-kit/checkbox-field.tsx';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { SelectField } from '../../components/form-kit/select-field.tsx';
import { TextareaField } from '../../components/form-kit/textarea-field.tsx';
import { useServerForm } from '../../components/form-kit/use-server-form.ts';
import { toastFailure } from '../../lib/feedback.tsx';
import classes from './bylaws.module.css';
import { DOWNLOAD_NOTICE_MS, MONTH_OPTIONS, QUESTIONS, SUCCESS_TEXT, viewerAddress } from './questions.ts';
import type { bylawContracts } from '../../../shared/contracts/bylaws.ts';
import type { BylawSaved } from '../../../shared/schemas/bylaws.ts';

type Values = Record<string, string | boolean>;

/** Empty answers of a variant, as the form holds them (months as strings, checkboxes as booleans). */
function blankAnswers(variant: BylawVariant): Values {
  const base: Values = { version: variant, name: '', purpose: '', fiscal_year_end: '', is_highlighted: false };
  if (variant === 'short') return base;
  const full: Values = {
    ...base,
    facility: '',
    meeting_attendee_minimum: '',
    meeting_request_minimum: '',
    nomination_month: '',
    annual_meeting_month: '',
    is_school: variant === 'school' ? '1' : '0',
  };
  if (variant !== 'school') return full;
  return { ...full, school_official_title: '', ...Object.fromEntries(SCHOOL_CLAUSES.map((c) => [c, false])) };
}

/** Saved answers (numbers, 1/0 flags) back into form values. */
export function answersToValues(variant: BylawVariant, answers: Record<string, unknown>): Values {
  const blank = blankAnswers(variant);
  return Object.fromEntries(
    Object.entries(blank).map(([k, v]) => {
      const saved = answers[k];
      if (saved === undefined || saved === null) return [k, v];
      return [k, typeof v === 'boolean' ? saved === 1 || saved === true : String(saved)];
    }),
  );
}

/**
 * A question's tooltip (docs/requirements/screens.md): an info button that shows the hint beside it on hover or focus
 * and keeps it open when pressed (touch screens have no hover). Plain CSS positioning keeps the
 * tooltip library out of the page's JavaScript.
 */
function Hint({ text }: { text: string }) {
  const [pinned, setPinned] = useState(false);
  const [hovered, setHovered] = useState(false);
  const id = useId();
  const open = pinned || hovered;
  return (
    <span className={classes.hint} onMouseEnter={() => setHovered(true)} onMouseLeave={() => setHovered(false)}>
      <UnstyledButton
        type="button"
        aria-label={`Hint: ${text}`}
        aria-expanded={open}
        aria-describedby={open ? id : undefined}
        onClick={() => setPinned((p) => !p)}
        onFocus={() => setHovered(true)}
        onBlur={() => {
          setHovered(false);
          setPinned(false);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            setPinned(false);
            setHovered(false);
          }
        }}
        c="blue.8"
        fz="xs"
        fw={600}
        className={classes.hintButton}
      >
        <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <rect x="7.25" y="7" width="1.5" height="5" rx="0.75" fill="currentColor" />
          <circle cx="8" cy="4.75" r="1" fill="currentColor" />
        </svg>
        Hint
      </UnstyledButton>
      {open && (
        <span role="tooltip" id={id} className={classes.tooltip}>
          {text}
        </span>
      )}
    </span>
  );
}

/** Loads the download in a hidden frame (docs/requirements/calls.md) so the page stays as it is; one frame is reused. */
function startDownload(url: string) {
  let frame = document.getElementById('bylaws-download-frame') as HTMLIFrameElement | null;
  if (!frame) {
    frame = document.createElement('iframe');
    frame.id = 'bylaws-download-frame';
    frame.hidden = true;
    frame.title = 'Bylaws download';
    document.body.appendChild(frame);
  }
  frame.src = url;
}

/** The choice after each Generate (docs/requirements/errors.md): Download, View online and the built-in preview. */
function CreatedPanel({ saved }: { saved: BylawSaved }) {
  const [downloading, setDownloading] = useState(false);
  const timer = useRef<number>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const { bylaw } = saved;
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A block body: newer browsers return a promise from scrollIntoView, which is not a cleanup.
    panel.current?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  }, [saved]);
  const download = () => {
    // Same-origin path for the frame: the absolute address is for the outside viewer.
    startDownload(`/bylaws-generator/download/${encodeURIComponent(bylaw.hash)}`);
    setDownloading(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setDownloading(false), DOWNLOAD_NOTICE_MS);
  };
  const viewOnline = () => {
    window.open(
      bylaw.viewer ? viewerAddress(bylaw.viewer, bylaw.download_url) : bylaw.preview_url,
      '_blank',
      'noopener',
    );
  };
  return (
    <Alert ref={panel} color="green" title="Success!" role="status">
      <Stack gap="sm">
        <Text>{SUCCESS_TEXT}</Text>
        <Group>
          <Button onClick={download}>Download</Button>
          <Button variant="light" onClick={viewOnline}>
            View online
          </Button>
          {bylaw.viewer && (
            <Button variant="subtle" component="a" href={bylaw.preview_url} target="_blank">
              Preview on this site
            </Button>
          )}
        </Group>
        {downloading && (
          <Text size="sm" role="status">
            Your download is starting…
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

/** A first Generate posts to the variant's page path (src/shared/bylaws/variants.ts BYLAW_PAGE_PATHS). */
const CREATE_ROUTE = {
  standard: routeAt<typeof bylawContracts.createStandard>('POST', '/bylaws-generator'),
  school: routeAt<typeof bylawContracts.createSchool>('POST', '/bylaws-generator/school'),
  short: routeAt<typeof bylawContracts.createShort>('POST', '/bylaws-generator/short'),
};
/** Later saves put to the saved bylaw's `action`, `/bylaws-generator/{hash}`. */
const UPDATE_ROUTE = routeAt<typeof bylawContracts.update>('PUT', '/bylaws-generator/:hash');
type BylawSave = (typeof bylawContracts)['createStandard' | 'createSchool' | 'createShort' | 'update'];

/**
 * The bylaws generator form of one variant (docs/requirements/product.md tool 3, docs/requirements/behaviour.md "Bylaws form"): the first Generate
 * POSTs to the page path; after success the address becomes the server's `url` and later saves
 * PUT to its `action`. Answers stay in the form after each save.
 */
export function BylawsForm({
  variant,
  initial,
  saved: savedBefore,
}: {
  variant: BylawVariant;
  initial?: Values;
  saved?: BylawSaved;
}) {
  const [saved, setSaved] = useState<BylawSaved | null>(savedBefore ?? null);
  const [justSaved, setJustSaved] = useState(false);
  const kit = useServerForm<Values, BylawSave>({
    route: saved ? UPDATE_ROUTE : CREATE_ROUTE[variant],
    params: saved ? { hash: saved.bylaw.hash } : undefined,
    defaultValues: initial ?? blankAnswers(variant),
    // Loaded when the form is first used, so the page does not load zod first (docs/requirements/platform.md §6).
    loadSchema: () => import('../../../shared/schemas/bylaws.ts').then((m) => m.BYLAW_SCHEMAS[variant]),
    captchaAction: 'bylaws',
    isClearing: false,
    onSuccess: (response) => {
      if (!saved) window.history.replaceState(window.history.state, '', response.url);
      setSaved(response);
      setJustSaved(true);
    },
    onFailure: (f) => {
      setJustSaved(false);
      // A 429 is shown by the form itself, with when to try again.
      if (f.status !== 429) toastFailure();
    },
  });
  const clauses = variant === 'school' ? SCHOOL_CLAUSES.filter((c) => kit.form.watch(c)) : [];
  const q = QUESTIONS;

  return (
    <Stack gap="lg">
      <Alert color="blue" variant="light">
        Your responses are saved, so you can come back and edit them later from this page’s address, or{' '}
        <Anchor component={Link} to="/bylaws-generator" reloadDocument>
          start over
        </Anchor>
        .
      </Alert>
      <Card withBorder padding="xl">
        <KitForm kit={kit} label="Bylaws generator">
          <input type="hidden" {...kit.form.register('version')} />
          {variant !== 'short' && <input type="hidden" {...kit.form.register('is_school')} />}
          <TextField name="name" label={q.name.label} required placeholder={q.name.placeholder} maxLength={150} />
          <TextareaField
            name="purpose"
            label={q.purpose.label}
            required
            rows={4}
            placeholder={q.purpose.placeholder}
            description={<Hint text={q.purpose.tooltip} />}
            maxLength={2000}
          />
          {variant !== 'short' && (
            <>
              <TextField
                name="facility"
                label={q.facility.label}
                required
                placeholder={q.facility.placeholder}
                maxLength={150}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextField
                  name="meeting_attendee_minimum"
                  label={q.meeting_attendee_minimum.label}
                  required
                  placeholder={q.meeting_attendee_minimum.placeholder}
                  description={q.meeting_attendee_minimum.description}
                  maxLength={20}
                />
                <TextField
                  name="meeting_request_minimum"
                  label={q.meeting_request_minimum.label}
                  required
                  placeholder={q.meeting_request_minimum.placeholder}
                  description={q.meeting_request_minimum.description}
                  maxLength={20}
                />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <SelectField
                  name="nomination_month"
                  label={q.nomination_month.label}
                  required
                  options={MONTH_OPTIONS}
                  description={<Hint text={q.nomination_month.tooltip} />}
                  prompt="Choose a month…"
                />
                <SelectField
                  name="annual_meeting_month"
                  label={q.annual_meeting_month.label}
                  required
                  options={MONTH_OPTIONS}
                  prompt="Choose a month…"
                />
              </SimpleGrid>
            </>
          )}
          <SelectField
            name="fiscal_year_end"
            label={q.fiscal_year_end.label}
            required
            options={MONTH_OPTIONS}
            description={<Hint text={q.fiscal_year_end.tooltip} />}
            prompt="Choose a month…"
          />
          {variant === 'school' && (
            <Stack gap="sm">
              <Title order={2} size="h4">
                School requirements
              </Title>
              <Text size="sm" c="gray.7">
                Tick what your school or district requires of its booster organizations; each adds an article to the
                bylaws.
              </Text>
              <TextField
                name="school_official_title"
                label={q.school_official_title.label}
                required={clauses.length > 0}
                placeholder={q.school_official_title.placeholder}
                description={q.school_official_title.description}
                maxLength={100}
              />
              <Fieldset legend="Clauses your school requires" variant="unstyled">
                <Stack gap="xs" mt={4}>
                  {SCHOOL_CLAUSES.map((c) => (
                    <CheckboxField key={c} name={c} label={SCHOOL_CLAUSE_LABELS[c]} />
                  ))}
                </Stack>
              </Fieldset>
            </Stack>
          )}
          <CheckboxField
            name="is_highlighted"
            label={q.is_highlighted.label}
            description="Marks every part that came from your answers, to make review easier."
          />
          <Alert color="yellow" title="Please review before adopting">
            These bylaws are general guidance, not legal advice. Review them with your officers, check any rules your
            school, district or national organization sets, and change what does not fit before your members vote to
            adopt them.
          </Alert>
          <SubmitButton>Generate</SubmitButton>
        </KitForm>
      </Card>
      {/* The choice refers to the last saved version: hidden while a new one is being saved. */}
      {saved && justSaved && !kit.submitting && <CreatedPanel saved={saved} />}
    </Stack>
  );
}
