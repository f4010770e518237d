// Longer than 400 lines: one adapter for one API: the request builders, the answer parsing and the mapping of
// each gateway code to the product's outcome, which must be read together to see that a charge is never sent
// twice.
/**
 * Authorize.Net payments provider (docs/requirements/platform.md §2 rule 4, §5.8; docs/requirements/product.md tool 14, docs/requirements/entities.md "Payment payloads",
 * docs/requirements/calls.md payment calls, docs/requirements/errors.md "Payments").
 *
 * One real client for the createTransactionRequest JSON API. It is pointed by config at the real
 * gateway (AUTHORIZE_NET.production / .sandbox) or at the local gateway simulator
 * (`src/server/local-peers/gateway-simulator.ts`, development and tests only), which answers like the sandbox; the code path is the same.
 *
 * Rules kept here:
 * - Card and bank numbers never reach the server: charges carry only Accept.js opaque data.
 * - Nothing secret is logged or returned: no opaque token, no transaction key, no account number
 *   beyond the masked `XXXX1234` the gateway itself returns.
 * - Authorize.Net converts the JSON to XML and validates it against its schema, so every object is
 *   built with its keys in the documented element order.
 * - Answers start with a UTF-8 byte order mark; it is stripped before JSON.parse.
 * - Paid only when `transactionResponse.responseCode` is "1". "4" (held for review) is pending.
 * - A timeout, a network failure, a non-2xx answer or an unreadable body is `{ status: 'unknown' }`:
 *   the gateway may or may not have charged, so the caller leaves the payment pending and never
 *   retries it under a new idempotency key. This client never retries on its own.
 */

import { must } from '../../../shared/must.ts';
import {
  TRANSACTION_REQUEST_ORDER,
  CREATE_TRANSACTION_ORDER,
  BILL_TO_ORDER,
  CUSTOMER_ORDER,
  ORDER_ORDER,
  GET_TRANSACTION_DETAILS_ORDER,
  GET_UNSETTLED_LIST_ORDER,
  UPDATE_HELD_ORDER,
  HELD_TRANSACTION_ORDER,
  CREDIT_CARD_ORDER,
  BANK_ACCOUNT_ORDER,
  UNSETTLED_PAGE_LIMIT,
  PAYPAL_ORDER,
} from '../../../shared/payments/authorize-net-fields.ts';

/** Gateway addresses for config (the local peer's are made by config.ts). */
export const AUTHORIZE_NET = {
  production: {
    endpoint: 'https://api2.authorize.net/xml/v1/request.api',
    acceptJsUrl: 'https://js.authorize.net/v1/Accept.js',
  },
  sandbox: {
    endpoint: 'https://apitest.authorize.net/xml/v1/request.api',
    acceptJsUrl: 'https://jstest.authorize.net/v1/Accept.js',
  },
} as const;

/** Maximum field lengths of the API; longer values are cut before sending. */
const MAX = {
  refId: 20,
  invoiceNumber: 20,
  description: 255,
  customerId: 20,
  email: 255,
  customerIP: 39,
  firstName: 50,
  lastName: 50,
  company: 50,
  address: 60,
  city: 40,
  state: 40,
  zip: 20,
  country: 60,
  phoneNumber: 25,
} as const;

/** Accept.js opaque data for a card or a bank account (eCheck); the same descriptor serves both. */
export interface OpaqueData {
  dataDescriptor: string;
  dataValue: string;
}

/** Billing address sent as `billTo`; every field optional, cut to the API's lengths. */
export interface BillTo {
  firstName?: string;
  lastName?: string;
  company?: string;
  address?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
  phoneNumber?: string;
}

/** Input of {@link PaymentGateway.chargeOpaqueData}. */
interface OpaqueDataCharge {
  /** Positive integer cents; sent as a decimal string ("12.50"). */
  amountCents: number;
  opaqueData: OpaqueData;
  /** Merchant reference echoed by the gateway, at most 20 characters (e.g. the attempt's idempotency key). */
  refId?: string;
  /** At most 20 characters; part of the gateway's duplicate check. */
  invoiceNumber?: string;
  description?: string;
  customer?: { id?: string; email?: string };
  billTo?: BillTo;
  customerIp?: string;
  /**
   * The gateway's duplicate window for this charge, in whole seconds (0 to 28800), sent as the
   * transaction setting `duplicateWindow`. Absent: the gateway's default (120 s), within which a
   * charge of the same card or account, amount and invoice number is refused with reason 11. Our
   * payments send 0: their own idempotency keys decide what is a repeat (docs/payments.md
   * "Retrying after a decline"), so a payer may try the same card again at once.
   */
  duplicateWindowSeconds?: number;
}

/** The documented bounds of the `duplicateWindow` transaction setting, in seconds. */
const DUPLICATE_WINDOW_MAX_SECONDS = 28_800;

/** Input of {@link PaymentGateway.paypalAuthCapture}. */
interface PaypalAuthCaptureRequest {
  amountCents: number;
  /** Where PayPal sends the payer back after approving, with `token` and `PayerID` added. */
  successUrl: string;
  /** Where PayPal sends the payer back after cancelling, with `token` added. */
  cancelUrl: string;
  refId?: string;
  invoiceNumber?: string;
  description?: string;
}

/** Input of {@link PaymentGateway.paypalContinue}. */
interface PaypalContinueRequest {
  /** transId answered by paypalAuthCapture. */
  refTransId: string;
  /** `PayerID` PayPal added to the success URL. */
  payerId: string;
  /** Optional; the gateway takes the amount of the first call when absent. */
  amountCents?: number;
  refId?: string;
}

/** First message of the gateway's top-level `messages` (e.g. I00001, E00027, E00114). */
interface GatewayMessage {
  code: string;
  text: string;
}

interface KnownOutcome {
  /** Top-level `messages.resultCode`. */
  resultCode: 'Ok' | 'Error';
  /** Top-level first message, or null. */
  message: GatewayMessage | null;
}

/** responseCode "1": paid. */
interface ApprovedOutcome extends KnownOutcome {
  status: 'approved';
  transId: string;
  authCode: string;
  /** Masked by the gateway, e.g. "XXXX1111"; never more than the last four digits. */
  accountNumber: string;
  /** Visa, MasterCard, AmericanExpress, Discover, JCB, DinersClub, eCheck, PayPal … */
  accountType: string;
  /** Transaction message code and description, e.g. "1" / "This transaction has been approved.". */
  code: string;
  text: string;
}

/** responseCode "4": held for review; the payment stays pending until the merchant decides. */
interface HeldOutcome extends KnownOutcome {
  status: 'held';
  transId: string;
  accountNumber: string;
  accountType: string;
  code: string;
  text: string;
}

/** responseCode "2": declined by the issuer or bank. */
interface DeclinedOutcome extends KnownOutcome {
  status: 'declined';
  transId: string | null;
  /** Response reason code, e.g. "2"; text e.g. "This transaction has been declined.". */
  code: string;
  text: string;
}

/**
 * Response reason 11: the same payment (account, amount, invoice) was submitted within the
 * duplicate window (120 s by default). Nothing new was charged; `transId` names the earlier one
 * when the gateway says so.
 */
interface DuplicateOutcome extends KnownOutcome {
  status: 'duplicate';
  transId: string | null;
  code: '11';
  text: string;
}

/**
 * responseCode "3", or a request the gateway refused as a whole (`messages.resultCode` Error without
 * a transaction: E00007 bad merchant credentials, E00114 invalid or reused opaque data, E00003 …).
 * `code` is the transaction's first error code when there is one, else the top-level message code.
 */
interface ErrorOutcome extends KnownOutcome {
  status: 'error';
  transId: string | null;
  code: string;
  text: string;
}

/** No usable answer: the charge may or may not have happened. Leave the payment pending. */
interface UnknownOutcome {
  status: 'unknown';
  reason: 'timeout' | 'network' | 'http_status' | 'unreadable';
}

/** Result of a card, bank or PayPal capture. Paid only when `status` is 'approved'. */
export type ChargeOutcome =
  ApprovedOutcome | HeldOutcome | DeclinedOutcome | DuplicateOutcome | ErrorOutcome | UnknownOutcome;

/** responseCode "5": send the payer's browser to `secureAcceptanceUrl`, then call paypalContinue. */
interface ConsentRequiredOutcome extends KnownOutcome {
  status: 'consent_required';
  transId: string;
  secureAcceptanceUrl: string;
}

/** Result of starting a PayPal payment. */
export type PaypalStartOutcome = ConsentRequiredOutcome | ChargeOutcome;

/**
 * One transaction as the Transaction Reporting API's getTransactionDetails tells it
 * (transactionDetailsType), reduced to what reconciliation reads. Never holds a full card or bank
 * number: `accountNumber` is the gateway's masked XXXX1234.
 */
export interface GatewayTransaction {
  transId: string;
  /** The refId the transaction was sent with (transrefId), e.g. gs-pay-42; '' when none. */
  refId: string;
  /** authCaptureTransaction, refundTransaction, voidTransaction … */
  transactionType: string;
  /**
   * transactionStatusEnum: capturedPendingSettlement, settledSuccessfully, FDSPendingReview,
   * FDSAuthorizedPendingReview, declined, voided, refundPendingSettlement, refundSettledSuccessfully …
   */
  transactionStatus: string;
  responseCode: string;
  authCode: string;
  /** settleAmount (or authAmount while not captured), integer cents. */
  amountCents: number;
  invoiceNumber: string;
  description: string;
  accountNumber: string;
  accountType: string;
  /** When the gateway received it; null when it did not say. */
  submittedAt: Date | null;
}

/** Result of {@link PaymentGateway.getTransactionDetails}. */
type TransactionLookup =
  | { status: 'found'; transaction: GatewayTransaction }
  /** E00040 "The record cannot be found.": the gateway has no such transaction. */
  | { status: 'not_found' }
  | { status: 'error'; code: string; text: string }
  | UnknownOutcome;

/** One row of getUnsettledTransactionList (transactionSummaryType). */
export interface TransactionSummary {
  transId: string;
  transactionStatus: string;
  invoiceNumber: string;
  amountCents: number;
  accountNumber: string;
  accountType: string;
  submittedAt: Date | null;
}

/** Result of {@link PaymentGateway.getUnsettledTransactions}: one page, oldest first. */
type UnsettledList =
  | { status: 'ok'; transactions: TransactionSummary[]; total: number }
  | { status: 'error'; code: string; text: string }
  | UnknownOutcome;

/** How a refund names the account the charge came from: only what the gateway itself masked. */
export type RefundPayment =
  { kind: 'card'; last4: string } | { kind: 'bank'; last4: string; nameOnAccount?: string } | { kind: 'paypal' };

/** Input of {@link PaymentGateway.refundTransaction}. */
interface RefundRequest {
  /** The settled charge to refund. */
  transId: string;
  /** Positive integer cents, at most what is left of the charge. */
  amountCents: number;
  payment: RefundPayment;
  invoiceNumber?: string;
  refId?: string;
}

/** The payments provider the billing module talks to (docs/requirements/platform.md §2 rule 4). */
export interface PaymentGateway {
  readonly name: string;
  /**
   * Charges Accept.js opaque data (card, or bank account for an eCheck) with an
   * authCaptureTransaction. Never throws for gateway or network trouble; see {@link ChargeOutcome}.
   * @throws RangeError when amountCents is not a positive safe integer (nothing is sent).
   */
  chargeOpaqueData(charge: OpaqueDataCharge): Promise<ChargeOutcome>;
  /**
   * Starts a PayPal Express Checkout payment (authCaptureTransaction with payment.payPal).
   * @returns consent_required with the secure acceptance URL and the transId to continue, or a failure.
   * @throws RangeError when amountCents is not a positive safe integer.
   */
  paypalAuthCapture(request: PaypalAuthCaptureRequest): Promise<PaypalStartOutcome>;
  /**
   * Completes a consented PayPal payment (authCaptureContinueTransaction with refTransId and payerID).
   * @throws RangeError when amountCents is given and is not a positive safe integer.
   */
  paypalContinue(request: PaypalContinueRequest): Promise<ChargeOutcome>;
  /**
   * getTransactionDetailsRequest: what the gateway knows of one transaction (docs/payments.md
   * "Reconciliation"). Never throws for gateway or network trouble.
   */
  getTransactionDetails(transId: string): Promise<TransactionLookup>;
  /**
   * getUnsettledTransactionListRequest: one page of the transactions not yet settled, oldest first
   * (`offset` is the 1-based page number, as the API's paging counts). Never throws.
   */
  getUnsettledTransactions(page?: { offset?: number; limit?: number }): Promise<UnsettledList>;
  /**
   * updateHeldTransactionRequest: approves or declines a transaction held for review. 'approved'
   * (responseCode 1) after an approval and 'declined' (responseCode 2) after a decline mean the
   * action was taken; 'error' that the gateway refused it.
   */
  updateHeldTransaction(request: {
    transId: string;
    action: 'approve' | 'decline';
    refId?: string;
  }): Promise<ChargeOutcome>;
  /** createTransactionRequest with voidTransaction: cancels an unsettled charge. 'approved' when voided. */
  voidTransaction(request: { transId: string; refId?: string }): Promise<ChargeOutcome>;
  /**
   * createTransactionRequest with refundTransaction: gives back part or all of a settled charge.
   * 'approved' carries the refund's own transId.
   * @throws RangeError when amountCents is not a positive safe integer.
   */
  refundTransaction(request: RefundRequest): Promise<ChargeOutcome>;
}

/** The logger calls this client makes (a pino / Fastify logger fits). Only non-secret fields are passed. */
export interface PaymentLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** Options of {@link authorizeNetGateway}. */
export interface AuthorizeNetOptions {
  /** Full URL of request.api: AUTHORIZE_NET.production.endpoint, .sandbox.endpoint or the simulator's. */
  endpoint: string;
  /** API login id (merchantAuthentication.name). */
  apiLoginId: string;
  /** Transaction key (merchantAuthentication.transactionKey); never logged. */
  transactionKey: string;
  /** Whole-call limit including reading the answer, default 30 000 ms; past it the outcome is unknown. */
  timeoutMs?: number;
  logger?: PaymentLogger;
}

/**
 * Formats integer cents as the API's decimal amount: 1050 → "10.50", 5 → "0.05".
 * @throws RangeError unless cents is a positive safe integer.
 */
export function formatAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents <= 0)
    throw new RangeError(`amountCents must be a positive integer, got ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * Parses a gateway answer: strips a leading UTF-8 byte order mark, then JSON.parse.
 * @throws SyntaxError when the rest is not JSON.
 */
export function parseGatewayResponse(text: string): unknown {
  return JSON.parse(text.replace(/^\uFEFF/, ''));
}

/**
 * Splits a single name field (docs/requirements/entities.md card `name`, bank `nameOnAccount`) into billTo first and last
 * names: the last word is the last name.
 */
export function splitFullName(name: string): { firstName?: string; lastName?: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return {};
  if (words.length === 1) return { lastName: words[0] };
  return { firstName: words.slice(0, -1).join(' '), lastName: words[words.length - 1] };
}

/** Builds an object with keys in `order`, dropping undefined and empty values; undefined when nothing is left. */
function ordered(order: readonly string[], values: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const key of order) {
    const value = values[key];
    if (value === undefined || value === null || value === '') continue;
    out[key] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

/** A `transactionRequest` in documented order: never empty, since every request names its transactionType. */
function transactionRequest(values: Record<string, unknown>): Record<string, unknown> {
  return must(ordered(TRANSACTION_REQUEST_ORDER, values), 'a transactionRequest with its transactionType');
}

/** Trims and cuts a text field to the API's maximum length; undefined for empty input. */
function cut(value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, max) : undefined;
}

function billToElement(billTo: BillTo | undefined): Record<string, unknown> | undefined {
  if (!billTo) return undefined;
  return ordered(BILL_TO_ORDER, {
    firstName: cut(billTo.firstName, MAX.firstName),
    lastName: cut(billTo.lastName, MAX.lastName),
    company: cut(billTo.company, MAX.company),
    address: cut(billTo.address, MAX.address),
    city: cut(billTo.city, MAX.city),
    state: cut(billTo.state, MAX.state),
    zip: cut(billTo.zip, MAX.zip),
    country: cut(billTo.country, MAX.country),
    phoneNumber: cut(billTo.phoneNumber, MAX.phoneNumber),
  });
}

/**
 * The `transactionRequest` of an opaque-data charge, keys in documented order. Exported for tests;
 * the result holds the opaque token, so it must never be logged.
 */
function opaqueChargeTransaction(charge: OpaqueDataCharge): Record<string, unknown> {
  return transactionRequest({
    transactionType: 'authCaptureTransaction',
    amount: formatAmount(charge.amountCents),
    payment: {
      opaqueData: { dataDescriptor: charge.opaqueData.dataDescriptor, dataValue: charge.opaqueData.dataValue },
    },
    order: ordered(ORDER_ORDER, {
      invoiceNumber: cut(charge.invoiceNumber, MAX.invoiceNumber),
      description: cut(charge.description, MAX.description),
    }),
    customer:
      charge.customer &&
      ordered(CUSTOMER_ORDER, {
        id: cut(charge.customer.id, MAX.customerId),
        email: cut(charge.customer.email, MAX.email),
      }),
    billTo: billToElement(charge.billTo),
    customerIP: cut(charge.customerIp, MAX.customerIP),
    transactionSettings: duplicateWindowSetting(charge.duplicateWindowSeconds),
  });
}

/**
 * `transactionSettings` carrying one `duplicateWindow` setting, or undefined when none is asked.
 * @throws RangeError for a window that is not a whole number of seconds from 0 to 28800
 */
function duplicateWindowSetting(seconds: number | undefined): Record<string, unknown> | undefined {
  if (seconds === undefined) return undefined;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > DUPLICATE_WINDOW_MAX_SECONDS) {
    throw new RangeError(`duplicateWindow must be 0 to ${DUPLICATE_WINDOW_MAX_SECONDS} whole seconds, got ${seconds}`);
  }
  return { setting: [{ settingName: 'duplicateWindow', settingValue: String(seconds) }] };
}

/** The `transactionRequest` that starts a PayPal payment, keys in documented order. */
function paypalStartTransaction(request: PaypalAuthCaptureRequest): Record<string, unknown> {
  return transactionRequest({
    transactionType: 'authCaptureTransaction',
    amount: formatAmount(request.amountCents),
    payment: { payPal: ordered(PAYPAL_ORDER, { successUrl: request.successUrl, cancelUrl: request.cancelUrl }) },
    order: ordered(ORDER_ORDER, {
      invoiceNumber: cut(request.invoiceNumber, MAX.invoiceNumber),
      description: cut(request.description, MAX.description),
    }),
  });
}

/** The `transactionRequest` that completes a consented PayPal payment, keys in documented order. */
function paypalContinueTransaction(request: PaypalContinueRequest): Record<string, unknown> {
  return transactionRequest({
    transactionType: 'authCaptureContinueTransaction',
    amount: request.amountCents === undefined ? undefined : formatAmount(request.amountCents),
    payment: { payPal: { payerID: request.payerId } },
    refTransId: request.refTransId,
  });
}

/** The `transactionRequest` that voids an unsettled charge, keys in documented order. */
function voidTransactionRequest(transId: string): Record<string, unknown> {
  return transactionRequest({ transactionType: 'voidTransaction', refTransId: transId });
}

/**
 * The `transactionRequest` that refunds a settled charge, keys in documented order. The account is
 * named only by the last four digits the gateway masked (a card's expiration date as XXXX).
 */
function refundTransactionRequest(request: RefundRequest): Record<string, unknown> {
  const last4 = (value: string) => value.replace(/\D/g, '').slice(-4);
  const payment =
    request.payment.kind === 'card'
      ? { creditCard: ordered(CREDIT_CARD_ORDER, { cardNumber: last4(request.payment.last4), expirationDate: 'XXXX' }) }
      : request.payment.kind === 'bank'
        ? {
            bankAccount: ordered(BANK_ACCOUNT_ORDER, {
              accountNumber: last4(request.payment.last4),
              nameOnAccount: cut(request.payment.nameOnAccount, 22),
            }),
          }
        : undefined;
  return transactionRequest({
    transactionType: 'refundTransaction',
    amount: formatAmount(request.amountCents),
    payment,
    refTransId: request.transId,
    order: ordered(ORDER_ORDER, { invoiceNumber: cut(request.invoiceNumber, MAX.invoiceNumber) }),
  });
}

// ---------------------------------------------------------------------------------------------
// Reading answers

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** JSON arrays may come as an array, a single object, or wrapped (`{ error: [...] }`) after XML conversion. */
function list(v: unknown, wrapper: string): Json[] {
  if (Array.isArray(v)) return v.filter(isObject);
  if (isObject(v)) {
    if (wrapper in v) return list(v[wrapper], wrapper);
    return [v];
  }
  return [];
}

/** Keeps at most the last four characters of an account number, in the gateway's XXXX1234 form. */
function maskAccount(value: unknown): string {
  const raw = str(value).replace(/[^0-9A-Za-z]/g, '');
  const last4 = raw.replace(/^X+/i, '').slice(-4);
  return last4 ? `XXXX${last4}` : '';
}

/** transId, or null for the gateway's "0" (no transaction recorded). */
function transIdOf(tr: Json): string | null {
  const id = str(tr.transId);
  return id && id !== '0' ? id : null;
}

/**
 * Maps a parsed createTransactionResponse to an outcome. Paid only on responseCode "1"; an answer
 * that fits no documented case is 'unknown' (leave the payment pending).
 */
export function interpretTransactionResponse(body: unknown): PaypalStartOutcome {
  if (!isObject(body)) return { status: 'unknown', reason: 'unreadable' };
  const messages = isObject(body.messages) ? body.messages : {};
  const resultCode: 'Ok' | 'Error' = messages.resultCode === 'Ok' ? 'Ok' : 'Error';
  const top = list(messages.message, 'message')[0];
  const message: GatewayMessage | null = top ? { code: str(top.code), text: str(top.text) } : null;
  const tr = isObject(body.transactionResponse) ? body.transactionResponse : undefined;
  const responseCode = tr ? str(tr.responseCode) : '';

  if (!tr || !responseCode) {
    if (messages.resultCode === 'Error' && message) {
      return { status: 'error', resultCode, message, transId: null, code: message.code, text: message.text };
    }
    return { status: 'unknown', reason: 'unreadable' };
  }

  const firstError = list(tr.errors, 'error')[0];
  const firstMessage = list(tr.messages, 'message')[0];
  const detail = firstError
    ? { code: str(firstError.errorCode), text: str(firstError.errorText) }
    : firstMessage
      ? { code: str(firstMessage.code), text: str(firstMessage.description) }
      : { code: message?.code ?? '', text: message?.text ?? '' };
  const transId = transIdOf(tr);
  const common = { resultCode, message };

  switch (responseCode) {
    case '1':
      if (!transId) return { status: 'unknown', reason: 'unreadable' };
      return {
        status: 'approved',
        ...common,
        transId,
        authCode: str(tr.authCode),
        accountNumber: maskAccount(tr.accountNumber),
        accountType: str(tr.accountType),
        ...detail,
      };
    case '4':
      if (!transId) return { status: 'unknown', reason: 'unreadable' };
      return {
        status: 'held',
        ...common,
        transId,
        accountNumber: maskAccount(tr.accountNumber),
        accountType: str(tr.accountType),
        ...detail,
      };
    case '2':
      return { status: 'declined', ...common, transId, ...detail };
    case '3':
      if (detail.code === '11') return { status: 'duplicate', ...common, transId, code: '11', text: detail.text };
      return { status: 'error', ...common, transId, ...detail };
    case '5': {
      const acceptance = isObject(tr.secureAcceptance) ? tr.secureAcceptance : {};
      const url = str(acceptance.SecureAcceptanceUrl ?? acceptance.secureAcceptanceUrl);
      if (!transId || !/^https?:\/\//i.test(url)) return { status: 'unknown', reason: 'unreadable' };
      return { status: 'consent_required', ...common, transId, secureAcceptanceUrl: url };
    }
    default:
      return { status: 'unknown', reason: 'unreadable' };
  }
}

/** "12.50" or 12.5 → 1250; 0 for anything unreadable (reports always carry an amount). */
function amountToCents(value: unknown): number {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(str(value).trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : 0;
}

function dateOf(value: unknown): Date | null {
  const text = str(value);
  if (!text) return null;
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The masked account of a report's `payment` (creditCard, bankAccount) and its type. */
function maskedPaymentOf(payment: unknown): { accountNumber: string; accountType: string } {
  if (!isObject(payment)) return { accountNumber: '', accountType: '' };
  if (isObject(payment.creditCard))
    return { accountNumber: maskAccount(payment.creditCard.cardNumber), accountType: str(payment.creditCard.cardType) };
  if (isObject(payment.bankAccount))
    return { accountNumber: maskAccount(payment.bankAccount.accountNumber), accountType: 'eCheck' };
  if (isObject(payment.payPal)) return { accountNumber: '', accountType: 'PayPal' };
  return { accountNumber: '', accountType: '' };
}

/** The top-level result of any answer: Ok, or Error with its first message. */
function topResult(body: Json): { ok: boolean; message: GatewayMessage | null } {
  const messages = isObject(body.messages) ? body.messages : {};
  const top = list(messages.message, 'message')[0];
  return { ok: messages.resultCode === 'Ok', message: top ? { code: str(top.code), text: str(top.text) } : null };
}

/** Maps a parsed getTransactionDetailsResponse (E00040 is "no such transaction"). */
function interpretTransactionDetails(body: unknown): TransactionLookup {
  if (!isObject(body)) return { status: 'unknown', reason: 'unreadable' };
  const { ok, message } = topResult(body);
  if (!ok) {
    if (message?.code === 'E00040') return { status: 'not_found' };
    return message
      ? { status: 'error', code: message.code, text: message.text }
      : { status: 'unknown', reason: 'unreadable' };
  }
  const tr = isObject(body.transaction) ? body.transaction : undefined;
  if (!tr || !str(tr.transId) || !str(tr.transactionStatus)) return { status: 'unknown', reason: 'unreadable' };
  const order = isObject(tr.order) ? tr.order : {};
  const settle = amountToCents(tr.settleAmount);
  return {
    status: 'found',
    transaction: {
      transId: str(tr.transId),
      refId: str(body.transrefId),
      transactionType: str(tr.transactionType),
      transactionStatus: str(tr.transactionStatus),
      responseCode: str(tr.responseCode),
      authCode: str(tr.authCode),
      amountCents: settle || amountToCents(tr.authAmount),
      invoiceNumber: str(order.invoiceNumber),
      description: str(order.description),
      ...maskedPaymentOf(tr.payment),
      submittedAt: dateOf(tr.submitTimeUTC),
    },
  };
}

/** Maps a parsed getUnsettledTransactionListResponse (no `transactions` at all means none). */
function interpretUnsettledList(body: unknown): UnsettledList {
  if (!isObject(body)) return { status: 'unknown', reason: 'unreadable' };
  const { ok, message } = topResult(body);
  if (!ok)
    return message
      ? { status: 'error', code: message.code, text: message.text }
      : { status: 'unknown', reason: 'unreadable' };
  const transactions = list(body.transactions, 'transaction')
    .map((t): TransactionSummary => ({
      transId: str(t.transId),
      transactionStatus: str(t.transactionStatus),
      invoiceNumber: str(t.invoiceNumber),
      amountCents: amountToCents(t.settleAmount),
      accountNumber: maskAccount(t.accountNumber),
      accountType: str(t.accountType),
      submittedAt: dateOf(t.submitTimeUTC),
    }))
    .filter((t) => t.transId);
  const total = Number(str(body.totalNumInResultSet));
  return { status: 'ok', transactions, total: Number.isFinite(total) && total > 0 ? total : transactions.length };
}

// ---------------------------------------------------------------------------------------------
// The client

/**
 * Authorize.Net client over the JSON API (docs/requirements/calls.md payment calls, docs/requirements/platform.md §5.8; docs/payments.md):
 * createTransactionRequest (charges, PayPal, void, refund), updateHeldTransactionRequest,
 * getTransactionDetailsRequest and getUnsettledTransactionListRequest. Point `endpoint` at
 * AUTHORIZE_NET.production/.sandbox or at the local simulator; nothing else changes. Each call is
 * one HTTP request: it is never retried. Logs (when a logger is given) carry only refId, transId,
 * status and codes.
 */
export function authorizeNetGateway(opts: AuthorizeNetOptions): PaymentGateway {
  const endpoint = new URL(opts.endpoint);
  if (endpoint.protocol !== 'https:' && endpoint.protocol !== 'http:')
    throw new Error('The Authorize.Net endpoint must be an http(s) URL');
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const merchantAuthentication = { name: opts.apiLoginId, transactionKey: opts.transactionKey };

  /** Posts `{ [root]: body }`; the parsed answer, or why there is none. */
  async function post(
    root: string,
    body: Record<string, unknown> | undefined,
  ): Promise<{ parsed: unknown } | UnknownOutcome> {
    try {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ [root]: body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
      if (!res.ok) return { status: 'unknown', reason: 'http_status' };
      try {
        return { parsed: parseGatewayResponse(text) };
      } catch {
        return { status: 'unknown', reason: 'unreadable' };
      }
    } catch (err) {
      const name = (err as { name?: string } | null)?.name;
      return { status: 'unknown', reason: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network' };
    }
  }

  async function send(
    refId: string | undefined,
    transactionRequest: Record<string, unknown>,
    what: string,
  ): Promise<PaypalStartOutcome> {
    const answer = await post(
      'createTransactionRequest',
      ordered(CREATE_TRANSACTION_ORDER, {
        merchantAuthentication,
        refId: cut(refId, MAX.refId),
        transactionRequest,
      }),
    );
    const outcome = 'parsed' in answer ? interpretTransactionResponse(answer.parsed) : answer;
    log(refId, what, outcome);
    return outcome;
  }

  function log(
    refId: string | undefined,
    what: string,
    outcome: { status: string } & Partial<{
      reason: string;
      transId: string | null;
      code: string;
      message: GatewayMessage | null;
    }>,
  ): void {
    if (!opts.logger) return;
    const fields: Record<string, unknown> = {
      gateway: 'authorize.net',
      call: what,
      refId: cut(refId, MAX.refId),
      status: outcome.status,
    };
    if (outcome.status === 'unknown') {
      opts.logger.warn({ ...fields, reason: outcome.reason }, 'payment gateway gave no usable answer');
      return;
    }
    if (outcome.transId !== undefined) fields.transId = outcome.transId;
    if (outcome.code !== undefined) fields.code = outcome.code;
    if (outcome.message) fields.messageCode = outcome.message.code;
    opts.logger.info(fields, 'payment gateway answered');
  }

  const asCharge = (outcome: PaypalStartOutcome): ChargeOutcome =>
    outcome.status === 'consent_required' ? { status: 'unknown', reason: 'unreadable' } : outcome;

  return {
    name: 'authorize.net',
    async chargeOpaqueData(charge) {
      const transaction = opaqueChargeTransaction(charge);
      return asCharge(await send(charge.refId, transaction, 'chargeOpaqueData'));
    },
    async paypalAuthCapture(request) {
      const transaction = paypalStartTransaction(request);
      return send(request.refId, transaction, 'paypalAuthCapture');
    },
    async paypalContinue(request) {
      const transaction = paypalContinueTransaction(request);
      return asCharge(await send(request.refId, transaction, 'paypalContinue'));
    },
    async getTransactionDetails(transId) {
      const answer = await post(
        'getTransactionDetailsRequest',
        ordered(GET_TRANSACTION_DETAILS_ORDER, { merchantAuthentication, transId }),
      );
      const outcome = 'parsed' in answer ? interpretTransactionDetails(answer.parsed) : answer;
      log(undefined, 'getTransactionDetails', {
        status: outcome.status,
        ...(outcome.status === 'unknown' ? { reason: outcome.reason } : {}),
        transId,
      });
      return outcome;
    },
    async getUnsettledTransactions(page = {}) {
      const limit = Math.min(Math.max(1, page.limit ?? UNSETTLED_PAGE_LIMIT), UNSETTLED_PAGE_LIMIT);
      const answer = await post(
        'getUnsettledTransactionListRequest',
        ordered(GET_UNSETTLED_LIST_ORDER, {
          merchantAuthentication,
          sorting: { orderBy: 'submitTimeUTC', orderDescending: 'false' },
          paging: { limit: String(limit), offset: String(Math.max(1, page.offset ?? 1)) },
        }),
      );
      const outcome = 'parsed' in answer ? interpretUnsettledList(answer.parsed) : answer;
      log(undefined, 'getUnsettledTransactions', {
        status: outcome.status,
        ...(outcome.status === 'unknown' ? { reason: outcome.reason } : {}),
      });
      return outcome;
    },
    async updateHeldTransaction(request) {
      const answer = await post(
        'updateHeldTransactionRequest',
        ordered(UPDATE_HELD_ORDER, {
          merchantAuthentication,
          refId: cut(request.refId, MAX.refId),
          heldTransactionRequest: ordered(HELD_TRANSACTION_ORDER, {
            action: request.action,
            refTransId: request.transId,
          }),
        }),
      );
      const outcome = asCharge('parsed' in answer ? interpretTransactionResponse(answer.parsed) : answer);
      log(request.refId, `updateHeldTransaction:${request.action}`, outcome);
      return outcome;
    },
    async voidTransaction(request) {
      return asCharge(await send(request.refId, voidTransactionRequest(request.transId), 'voidTransaction'));
    },
    async refundTransaction(request) {
      return asCharge(await send(request.refId, refundTransactionRequest(request), 'refundTransaction'));
    },
  };
}
