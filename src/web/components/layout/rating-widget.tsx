import { Button, Card, Group, Rating, Stack, Text, Textarea } from '@mantine/core';
import Cookies from 'js-cookie';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { ratingCookieName, RATING_COOKIE_DAYS } from '../../../shared/rules/cookies.ts';
import { pushEvent } from '../../lib/analytics.ts';
import { captchaToken } from '../../lib/captcha.ts';
import { hasPreferenceCookie } from '../../lib/cookies.ts';
import { call, HttpFailure } from '../../lib/http.ts';
import { HydrationFieldset } from '../form-kit/hydration-fieldset.tsx';
import type { createRatingContract } from '../../../shared/contracts/public-forms.ts';

/** POST /ratings, named without loading the contract's zod: the widget is on every public page. */
const CREATE_RATING = routeAt<typeof createRatingContract>('POST', '/ratings');

export const RATING_THANKS = 'Thank you, we have received your review!';
/** Shown instead of sending when no star is chosen (the server would refuse 0). */
const RATING_CHOOSE_STARS = 'Please choose from 1 to 5 stars.';

/**
 * "Was this page helpful?" (docs/requirements/product.md tool 10): five stars (1-5, starting at 0) and a comments box
 * named `comments`; POST /ratings; a cookie keyed on the page's path (ratingCookieName) remembers
 * the submission for 7 days so later visits show the thank-you state.
 * With no star chosen the form says so and sends nothing.
 */
export function RatingWidget() {
  const url = useLocation().pathname;
  const [submitted, setSubmitted] = useState(() => hasPreferenceCookie(ratingCookieName(url)));
  const [rating, setRating] = useState(0);
  const [comments, setComments] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  if (submitted) {
    return (
      <Card withBorder mt="xl" role="status">
        <Text fw={600}>{RATING_THANKS}</Text>
      </Card>
    );
  }

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (rating < 1) {
      setErrors((prev) => ({ ...prev, rating: RATING_CHOOSE_STARS }));
      return;
    }
    setBusy(true);
    try {
      const token = await captchaToken('rating');
      await call(CREATE_RATING, {
        body: { url, rating, comments, ...(token ? { 'g-recaptcha-response': token } : {}) },
      });
      Cookies.set(ratingCookieName(url), '1', { expires: RATING_COOKIE_DAYS, sameSite: 'lax', path: '/' });
      pushEvent('page_rated', { url, rating });
      setSubmitted(true);
    } catch (err) {
      if (err instanceof HttpFailure)
        setErrors(Object.fromEntries(Object.entries(err.errors).map(([k, v]) => [k, v[0]])));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder mt="xl" component="form" onSubmit={submit} aria-label="Rate this page">
      <HydrationFieldset>
        <Stack gap="sm">
          <Text fw={600} id="rating-question">
            Was this page helpful?
          </Text>
          <Group gap="xs">
            <Rating
              value={rating}
              onChange={(v) => {
                setRating(v);
                setErrors(({ rating: _drop, ...rest }) => rest);
              }}
              count={5}
              size="lg"
              aria-labelledby="rating-question"
              // Mantine passes each input's own value (0 is its "no stars" input).
              getSymbolLabel={(v) => (v === 0 ? 'No stars' : `${v} star${v === 1 ? '' : 's'}`)}
            />
          </Group>
          {errors.rating && (
            <Text c="red" size="sm" role="alert">
              {errors.rating}
            </Text>
          )}
          <Textarea
            name="comments"
            label="Comments"
            placeholder="What could we explain better?"
            value={comments}
            onChange={(e) => {
              setComments(e.currentTarget.value);
              setErrors(({ comments: _drop, ...rest }) => rest);
            }}
            error={errors.comments}
            rows={3}
          />
          <Group>
            <Button type="submit" variant="light" loading={busy} disabled={Object.keys(errors).length > 0}>
              Send review
            </Button>
          </Group>
        </Stack>
      </HydrationFieldset>
    </Card>
  );
}
