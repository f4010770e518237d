import { accountRoutes } from './modules/account/routes.ts';
import { accountUserRoutes } from './modules/account-users/routes.ts';
import { adminConsoleRoutes } from './modules/admin/console-routes.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { adminAccountRoutes } from './modules/admin-accounts/routes.ts';
import { adminJobRoutes } from './modules/admin-jobs/routes.ts';
import { adminPaymentRoutes } from './modules/admin-payments/routes.ts';
import { applicationRoutes } from './modules/applications/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { bylawRoutes } from './modules/bylaws/routes.ts';
import { complianceRoutes } from './modules/compliance/routes.ts';
import { contentRoutes } from './modules/content/routes.ts';
import { contestRoutes } from './modules/contests/routes.ts';
import { discountRoutes } from './modules/discounts/routes.ts';
import { extensionRoutes } from './modules/extensions/routes.ts';
import { financeRoutes } from './modules/finances/routes.ts';
import { genUpdateRoutes } from './modules/gen-updates/routes.ts';
import { groupWorkspaceRoutes } from './modules/group-workspace/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { homeRoutes } from './modules/home/routes.ts';
import { inquiryRoutes } from './modules/inquiries/routes.ts';
import { invoiceRoutes } from './modules/invoices/routes.ts';
import { irsBulkCheckRoutes } from './modules/irs-data/bulk-check-routes.ts';
import { irsCheckRoutes } from './modules/irs-data/routes.ts';
import { passwordResetRoutes } from './modules/password-reset/routes.ts';
import { paymentRoutes } from './modules/payments/routes.ts';
import { ratingRoutes } from './modules/ratings/routes.ts';
import { reinstatementRoutes } from './modules/reinstatement/routes.ts';
import { renewalRoutes } from './modules/renewals/routes.ts';
import { routingNumberRoutes } from './modules/routing-numbers/routes.ts';
import { subordinateRoutes } from './modules/subordinates/routes.ts';
import { supervisionRoutes } from './modules/supervision/routes.ts';
import { uploadRoutes } from './modules/uploads/routes.ts';
import { workQueueRoutes } from './modules/work-queue/routes.ts';
import type { FastifyInstance } from 'fastify';

/**
 * Every feature's routes, in the order the app registers them (docs/ARCHITECTURE.md "Folders"): a
 * module's routes are added to the app here, once. Each plugin registers its routes from their
 * contracts (src/shared/contracts/); the page shells come last, from src/server/app.ts, after the
 * gateway simulator.
 * @param opts migrationsTable: the schema-qualified migrations table the readiness check reads
 * @returns the plugins, for `app.register` one by one
 */
export function featureRoutes(opts: { migrationsTable: string }): ((app: FastifyInstance) => Promise<void>)[] {
  return [
    authRoutes,
    inquiryRoutes,
    ratingRoutes,
    passwordResetRoutes,
    contentRoutes,
    subordinateRoutes,
    irsCheckRoutes,
    irsBulkCheckRoutes,
    groupWorkspaceRoutes,
    accountRoutes,
    adminRoutes,
    adminConsoleRoutes,
    applicationRoutes,
    bylawRoutes,
    uploadRoutes,
    contestRoutes,
    discountRoutes,
    invoiceRoutes,
    paymentRoutes,
    routingNumberRoutes,
    financeRoutes,
    renewalRoutes,
    complianceRoutes,
    extensionRoutes,
    reinstatementRoutes,
    accountUserRoutes,
    homeRoutes,
    adminAccountRoutes,
    adminPaymentRoutes,
    genUpdateRoutes,
    workQueueRoutes,
    (app) => healthRoutes(app, opts),
    adminJobRoutes,
    supervisionRoutes,
  ];
}
