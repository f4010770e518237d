/** A level as /pricing shows it (GET /api/pricing; docs/requirements/entities.md "Level"). Money in integer cents. */
export interface PublicLevel {
  id: number;
  slug: string;
  name: string;
  description: string;
  /** Regular price, integer cents. */
  priceCents: number;
  /** Early-bird price, integer cents. */
  priceDiscountCents: number;
  renewalFeatures: string[];
}
