import { z } from 'zod';

/** A level as /pricing shows it (GET /api/pricing; docs/requirements/entities.md "Level"). Money in integer cents. */
export const publicLevelSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  /** Regular price, integer cents. */
  priceCents: z.number().int(),
  /** Early-bird price, integer cents. */
  priceDiscountCents: z.number().int(),
  renewalFeatures: z.array(z.string()),
});
export type PublicLevel = z.infer<typeof publicLevelSchema>;

/** docs/requirements/entities.md "State requirement": name plus maintain and articles-of-incorporation estimates (cents). */
export const stateRequirementSchema = z.object({
  code: z.string(),
  state_name: z.string(),
  maintain_estimate_cents: z.number().int(),
  aoi_estimate_cents: z.number().int(),
  notes: z.string(),
});
