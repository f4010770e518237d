import { PAYMENT_ALERT_KINDS } from '../../../shared/schemas/admin-payments.ts';
import { registerMetricsCollector } from '../../plugins/metrics.ts';
import { countOpenPaymentAlerts } from './list-payment-alerts.ts';
import type { FastifyInstance } from 'fastify';

/**
 * Adds `goodstanding_payment_alerts_open` to /metrics (docs/deploy.md "Observability",
 * docs/payments.md "Card testing"): the payment alerts staff have not reviewed yet, by `kind`
 * (`possible_card_testing`), counted in payment_alerts at each scrape, 0 for a kind with none, so
 * an alert rule can fire on `> 0`. Call it when METRICS_TOKEN is set (buildApp).
 */
export function registerPaymentAlertMetrics(app: FastifyInstance): void {
  registerMetricsCollector(app, {
    name: 'goodstanding_payment_alerts_open',
    help: 'Payment alerts not reviewed by staff yet, by kind (possible_card_testing: a payment limit was passed).',
    labelNames: ['kind'],
    async collect() {
      const open = await countOpenPaymentAlerts(app.db);
      return PAYMENT_ALERT_KINDS.map((kind) => ({ labels: { kind }, value: open[kind] }));
    },
  });
}
