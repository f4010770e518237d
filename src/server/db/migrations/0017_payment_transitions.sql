-- Payment states are enforced by the database (docs/payments.md "States"): a status moves only
-- along the allowed transitions, and a payment that leaves 'pending' and 'held' releases the
-- invoices it holds, whichever server or code path changed it.
CREATE OR REPLACE FUNCTION payments_check_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = OLD.status THEN
    RETURN NEW;
  END IF;
  IF (OLD.status = 'awaiting_consent' AND NEW.status IN ('pending', 'cancelled', 'failed'))
    OR (OLD.status = 'pending' AND NEW.status IN ('paid', 'held', 'declined', 'failed'))
    OR (OLD.status = 'held' AND NEW.status IN ('paid', 'declined'))
    OR (OLD.status = 'paid' AND NEW.status IN ('voided', 'refunded')) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'payment % cannot go from % to %', OLD.id, OLD.status, NEW.status
    USING ERRCODE = 'check_violation', CONSTRAINT = 'payments_status_transition';
END
$$;
--> statement-breakpoint
CREATE TRIGGER payments_status_transition BEFORE UPDATE OF status ON payments
  FOR EACH ROW EXECUTE FUNCTION payments_check_transition();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payments_release_invoices() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status NOT IN ('pending', 'held') THEN
    UPDATE invoices SET held_by_payment_id = NULL WHERE held_by_payment_id = NEW.id;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER payments_release_invoices AFTER UPDATE OF status ON payments
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION payments_release_invoices();
