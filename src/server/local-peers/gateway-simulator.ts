// Longer than 400 lines: it stands in for the whole Authorize.Net surface the product calls (Accept.js, the
// tokenizer, createTransactionRequest and the reporting calls, the PayPal consent page), all sharing one
// in-memory ledger of transactions; split, each part would reach into that ledger through exports made only
// for the split.
/**
 * Local Authorize.Net gateway simulator (docs/requirements/platform.md §2 rule 4: the local default that needs no account
 * and no network; docs/requirements/platform.md §5.8; docs/requirements/product.md tool 14, docs/requirements/calls.md, docs/requirements/errors.md "Payments").
 *
 * A Fastify plugin serving, under its prefix:
 * - `POST /xml/v1/request.api` createTransactionRequest (and securePaymentContainerRequest), answered
 *   like the sandbox: JSON with a UTF-8 byte order mark, element order checked (E00003).
 * - `POST /tokenize` the tokenizer behind the Accept.js stand-in (securePaymentContainerRequest).
 * - `GET /Accept.js` a browser script defining `Accept.dispatchData(secureData, callback)`, validating
 *   like Accept.js (E_WC_* codes and texts) and answering opaqueData.
 * - `GET /paypal/consent?token=…` a "PayPal (simulator)" page with Approve and Cancel buttons
 *   (plain forms, no script) that send the payer back to the success or cancel URL.
 * - On the same request.api: createTransactionRequest with voidTransaction and refundTransaction,
 *   updateHeldTransactionRequest, getTransactionDetailsRequest and getUnsettledTransactionListRequest,
 *   with the API's shapes and codes (docs/payments.md "Reconciliation").
 *
 * Point the real client (`authorizeNetGateway`) at `simulatorUrls(origin, prefix).endpoint` and the
 * web page at `.acceptJsUrl`; production config swaps in AUTHORIZE_NET.production with no code change.
 *
 * Documented behaviour (sandbox-like, see SIMULATOR_TRIGGERS):
 * - Merchant credentials must equal the plugin's apiLoginId / transactionKey, else E00007.
 *   The tokenizer checks apiLoginId / clientKey the same way (Accept.js shows E_WC_21).
 * - Opaque tokens are issued by /tokenize only, used once, and expire after 15 minutes; an unknown,
 *   reused or expired token answers resultCode Error, E00114 "Invalid OTS Token.".
 * - Cards: the sandbox test numbers (SANDBOX_TEST_CARDS) approve; any other number declines.
 * - billTo.zip 46282 declines (reason 2 "This transaction has been declined.").
 * - billTo.zip 46205 is held for review (responseCode "4", reason 252) — this simulator's own trigger.
 * - eCheck (bank) tokens approve up to 100.00; above 100.00 they decline.
 * - Amount 0, negative or malformed: responseCode "3", reason 5 "A valid amount is required.".
 * - billTo.zip 46203 declines for an address (AVS) mismatch: reason 27, as the real gateway answers
 *   when its AVS filter rejects the billing address — this simulator's own trigger.
 * - Duplicate: the same account (card or bank), amount and invoiceNumber within 120 s answers
 *   responseCode "3", error 11 "A duplicate transaction has been submitted." with the earlier transId.
 *   Declined and held charges count, as on the real gateway. The transaction setting
 *   `duplicateWindow` (transactionSettings.setting, 0 to 28800 seconds) sets the window for that
 *   request, as on the real gateway; 0 turns the check off. Another value answers E00003.
 * - Amount 13.13: the gateway processes the request (token used, charge recorded for the duplicate
 *   check) but its answer never comes: the client times out. Use it to test that a timed-out payment
 *   is left pending; a retry of the same card, amount and invoice within 120 s is answered, as a
 *   duplicate (error 11) naming the charge whose answer was lost.
 * - `delayMs` delays every createTransactionRequest answer (processing happens after the delay).
 * - Settlement: every transaction but a held charge and an uncaptured PayPal payment closes with
 *   the batch after `settlementSeconds` (10 minutes; `GatewaySimulatorState.settle()` closes it at
 *   once); captured charges and refunds are then settledSuccessfully. Unsettled charges can be
 *   voided (error 310 once voided; error 16 when unknown, settled or declined); settled ones
 *   refunded, in part or in full (error 54 when unsettled, unknown or not a charge, or when the
 *   card or account's last four digits differ; 55 past the amount charged).
 * - updateHeldTransactionRequest approves (responseCode 1) or declines (responseCode 2) a charge
 *   held for review; any other transaction answers error 16.
 * - getTransactionDetailsRequest answers transactionStatus (capturedPendingSettlement,
 *   settledSuccessfully, FDSAuthorizedPendingReview, declined, voided, refundPendingSettlement,
 *   refundSettledSuccessfully, authorizedPendingCapture for PayPal before capture) with the
 *   original refId as transrefId; an unknown transId answers E00040 "The record cannot be found.".
 * - getUnsettledTransactionListRequest lists every transaction not yet settled, oldest first, by
 *   pages (paging.limit up to 1000, paging.offset the 1-based page).
 * - PayPal: authCaptureTransaction with payment.payPal answers responseCode "5" and a
 *   SecureAcceptanceUrl to the consent page; authCaptureContinueTransaction with refTransId and
 *   payerID approves once when the payer approved, else error 2102 (or 2009 once captured).
 *
 * State (tokens, transactions, duplicate keys) lives in memory per plugin instance. Card and bank
 * numbers are never stored or logged: a token keeps the last four digits, the brand and a keyed
 * hash for the duplicate check.
 */
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import {
  ACCEPT_DATA_DESCRIPTOR,
  BILL_TO_ORDER,
  CREATE_TRANSACTION_ORDER,
  CUSTOMER_ORDER,
  ORDER_ORDER,
  PAYPAL_ORDER,
  TRANSACTION_REQUEST_ORDER,
} from '../../shared/payments/authorize-net-fields.ts';
import type { FastifyContextConfig, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';

/** The simulator's documented triggers. */
export const SIMULATOR_TRIGGERS = {
  /** billTo.zip that declines (the real sandbox's decline zip). */
  declineZip: '46282',
  /** billTo.zip that declines for an AVS mismatch (reason 27); chosen by this simulator. */
  avsMismatchZip: '46203',
  /** billTo.zip that is held for review (responseCode "4"); chosen by this simulator. */
  heldZip: '46205',
  /** eCheck amounts above this many cents decline. */
  eCheckLimitCents: 10_000,
  /** Amount in cents that is processed but never answered (gateway timeout). */
  noAnswerAmountCents: 1313,
  /** Duplicate window in seconds. */
  duplicateWindowSeconds: 120,
  /** Captured charges and refunds settle this many seconds after they were made. */
  settlementSeconds: 10 * 60,
  /** Opaque token lifetime in seconds. */
  tokenLifetimeSeconds: 15 * 60,
} as const;

/** Sandbox test card numbers that approve, with the accountType the gateway reports. */
export const SANDBOX_TEST_CARDS: Readonly<Record<string, string>> = {
  '370000000000002': 'AmericanExpress',
  '6011000000000012': 'Discover',
  '3088000000000017': 'JCB',
  '38000000000006': 'DinersClub',
  '4007000000027': 'Visa',
  '4012888818888': 'Visa',
  '4111111111111111': 'Visa',
  '5424000000000015': 'MasterCard',
  '2223000010309703': 'MasterCard',
  '2223000010309711': 'MasterCard',
};

/** Options of {@link gatewaySimulator}. `prefix` is Fastify's register prefix, e.g. '/_gateway'. */
export interface GatewaySimulatorOptions {
  prefix?: string;
  /**
   * Put the PayPal consent page on the origin of the payer's return address (`successUrl`) instead
   * of the origin the API request came to. Set it when the app the payer uses serves the simulator
   * itself and calls it through its own loopback address: the page is then wherever the payer's
   * browser already is (docs/security.md "Same origin"). Accept.js and its tokenizer always follow
   * the origin the script was requested at.
   */
  consentOnReturnOrigin?: boolean;
  apiLoginId: string;
  transactionKey: string;
  clientKey: string;
  /** Delay before each createTransactionRequest answer, in ms (default 0). */
  delayMs?: number;
  /** Clock in ms since the epoch (tests move it to expire tokens and duplicate windows). */
  now?: () => number;
  /** Shared state, to inspect recorded transactions from tests; a fresh one by default. */
  state?: GatewaySimulatorState;
}

/** A transaction the simulator recorded, without any card or bank number. */
export interface SimulatedTransaction {
  transId: string;
  /** 'refund' is a refundTransaction of the charge `refTransId`. */
  kind: 'card' | 'bank' | 'paypal' | 'refund';
  status: 'approved' | 'held' | 'declined' | 'awaiting_consent' | 'consented' | 'cancelled' | 'captured' | 'voided';
  amountCents: number;
  invoiceNumber?: string;
  refId?: string;
  /** order.description as sent. */
  description?: string;
  /** The charge a refund refers to. */
  refTransId?: string;
  /** Integer cents refunded so far (charges only). */
  refundedCents?: number;
  /** When the batch holding it settled; undefined while unsettled. */
  settledAt?: number;
  /** Masked, e.g. XXXX1111; empty for PayPal. */
  accountNumber: string;
  accountType: string;
  createdAt: number;
  /** False when the answer was never sent (the no-answer trigger). */
  answered: boolean;
}

interface StoredToken {
  kind: 'card' | 'bank';
  accountType: string;
  last4: string;
  isTestCard: boolean;
  fingerprint: string;
  expiresAt: number;
}

interface PaypalSession {
  token: string;
  successUrl: string;
  cancelUrl: string;
  payerId?: string;
}

const MAX_TRANSACTIONS = 10_000;

/** In-memory state of one simulator: issued tokens, transactions, duplicate keys, PayPal sessions. */
export class GatewaySimulatorState {
  readonly #tokens = new Map<string, StoredToken>();
  readonly #transactions = new Map<string, SimulatedTransaction & { paypal?: PaypalSession }>();
  readonly #recent = new Map<string, { at: number; transId: string }>();
  readonly #paypalByToken = new Map<string, string>();
  readonly #hashKey = randomBytes(32);
  #nextTransId = 40_000_000_000 + randomInt(1_000_000_000);

  /** Recorded transactions, oldest first (copies, no card or bank numbers). */
  listTransactions(): SimulatedTransaction[] {
    return [...this.#transactions.values()].map(({ paypal: _paypal, ...t }) => ({ ...t }));
  }

  /** One recorded transaction by id. */
  getTransaction(transId: string): SimulatedTransaction | undefined {
    const t = this.#transactions.get(transId);
    if (!t) return undefined;
    const { paypal: _paypal, ...rest } = t;
    return { ...rest };
  }

  /**
   * Closes the batch: settles every transaction made up to `upTo` (ms since the epoch; now by
   * default) but those held for review or awaiting PayPal capture, as the gateway's daily batch
   * does. @returns how many settled
   */
  settle(upTo = Date.now()): number {
    let n = 0;
    for (const t of this.#transactions.values()) {
      if (t.settledAt === undefined && settles(t) && t.createdAt <= upTo) {
        t.settledAt = upTo;
        n++;
      }
    }
    return n;
  }

  /** @internal every transaction, oldest first (the records themselves). */
  all(): (SimulatedTransaction & { paypal?: PaypalSession })[] {
    return [...this.#transactions.values()];
  }

  /** @internal keyed hash of an account number, for the duplicate check. */
  fingerprint(value: string): string {
    return createHmac('sha256', this.#hashKey).update(value).digest('hex');
  }

  /** @internal */
  issueToken(token: StoredToken): string {
    let value: string;
    do value = randomBytes(96).toString('base64');
    while (this.#tokens.has(value));
    this.#tokens.set(value, token);
    return value;
  }

  /** @internal takes a token out (single use); undefined when unknown or expired. */
  takeToken(value: string, now: number): StoredToken | undefined {
    for (const [key, t] of this.#tokens) if (t.expiresAt <= now) this.#tokens.delete(key);
    const token = this.#tokens.get(value);
    this.#tokens.delete(value);
    return token;
  }

  /** @internal */
  newTransId(): string {
    this.#nextTransId += 1 + randomInt(7);
    return String(this.#nextTransId);
  }

  /** @internal */
  record(t: SimulatedTransaction & { paypal?: PaypalSession }): void {
    this.#transactions.set(t.transId, t);
    if (t.paypal) this.#paypalByToken.set(t.paypal.token, t.transId);
    while (this.#transactions.size > MAX_TRANSACTIONS) {
      const oldest = this.#transactions.keys().next().value as string;
      const old = this.#transactions.get(oldest);
      if (old?.paypal) this.#paypalByToken.delete(old.paypal.token);
      this.#transactions.delete(oldest);
    }
  }

  /** @internal */
  transaction(transId: string): (SimulatedTransaction & { paypal?: PaypalSession }) | undefined {
    return this.#transactions.get(transId);
  }

  /** @internal */
  paypalTransaction(token: string): (SimulatedTransaction & { paypal: PaypalSession }) | undefined {
    const transId = this.#paypalByToken.get(token);
    const t = transId ? this.#transactions.get(transId) : undefined;
    return t?.paypal ? (t as SimulatedTransaction & { paypal: PaypalSession }) : undefined;
  }

  /** @internal the earlier transId when `key` was seen within the window; records it otherwise. */
  checkDuplicate(key: string, now: number, windowMs: number): string | undefined {
    // Forget only what no request could still match: each request may ask for its own window.
    for (const [k, v] of this.#recent) if (now - v.at >= MAX_DUPLICATE_WINDOW_MS) this.#recent.delete(k);
    const seen = this.#recent.get(key);
    return seen && now - seen.at < windowMs ? seen.transId : undefined;
  }

  /** @internal */
  rememberForDuplicates(key: string, now: number, transId: string): void {
    this.#recent.set(key, { at: now, transId });
  }
}

/**
 * Whether a transaction closes with the next batch: everything but a charge held for review and a
 * PayPal payment not captured yet (declined and voided ones leave the unsettled list too).
 */
function settles(t: SimulatedTransaction): boolean {
  return t.status !== 'held' && t.status !== 'awaiting_consent' && t.status !== 'consented';
}

/** The Transaction Reporting API's transactionStatus of a simulated transaction. */
function reportedStatus(t: SimulatedTransaction): string {
  if (t.kind === 'refund') return t.settledAt === undefined ? 'refundPendingSettlement' : 'refundSettledSuccessfully';
  switch (t.status) {
    case 'approved':
    case 'captured':
      return t.settledAt === undefined ? 'capturedPendingSettlement' : 'settledSuccessfully';
    case 'held':
      return 'FDSAuthorizedPendingReview';
    case 'declined':
      return 'declined';
    case 'voided':
    case 'cancelled':
      return 'voided';
    default:
      return 'authorizedPendingCapture';
  }
}

/** Where the simulator's parts live, for config: `origin` like http://localhost:3000, `prefix` like /_gateway. */
export function simulatorUrls(
  origin: string,
  prefix = '',
): { endpoint: string; acceptJsUrl: string; tokenizeUrl: string } {
  const base = `${origin.replace(/\/+$/, '')}${prefix.replace(/\/+$/, '')}`;
  return { endpoint: `${base}/xml/v1/request.api`, acceptJsUrl: `${base}/Accept.js`, tokenizeUrl: `${base}/tokenize` };
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** The longest duplicate window the gateway accepts (the `duplicateWindow` setting's maximum, 8 hours). */
const MAX_DUPLICATE_WINDOW_MS = 28_800_000;

/**
 * The duplicate window a transactionRequest asks for, in seconds: its `duplicateWindow` setting
 * (transactionSettings.setting, one object or a list), else the default 120 s; null when the
 * setting is not a whole number of seconds from 0 to 28800.
 */
function duplicateWindowOf(tr: Json): number | null {
  const settings = isObject(tr.transactionSettings) ? tr.transactionSettings.setting : undefined;
  const list = Array.isArray(settings) ? settings : settings === undefined ? [] : [settings];
  const setting = list.find((s): s is Json => isObject(s) && s.settingName === 'duplicateWindow');
  if (!setting) return SIMULATOR_TRIGGERS.duplicateWindowSeconds;
  const value = str(setting.settingValue).trim();
  if (!/^\d{1,5}$/.test(value) || Number(value) * 1000 > MAX_DUPLICATE_WINDOW_MS) return null;
  return Number(value);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const NS = 'AnetApi/xml/v1/schema/AnetApiSchema.xsd';

const TEXT = {
  approved: 'This transaction has been approved.',
  declined: 'This transaction has been declined.',
  avsMismatch:
    'The transaction has been declined because of an AVS mismatch. The address provided does not match billing address of cardholder.',
  held: 'Your order has been received. Thank you for your business!',
  duplicate: 'A duplicate transaction has been submitted.',
  invalidAmount: 'A valid amount is required.',
  notFound: 'The transaction cannot be found.',
  alreadyVoided: 'This transaction has already been voided.',
  noCredit: 'The referenced transaction does not meet the criteria for issuing a credit.',
  creditTooLarge: 'The sum of credits against the referenced transaction would exceed original debit amount.',
  recordNotFound: 'The record cannot be found.',
  consent: 'Need payer consent.',
  notAuthorized: 'Payment not authorized.  Payment has not been authorized by the user.',
  notContinuable:
    'The referenced transaction does not meet the criteria for issuing a Continued Authorization w/ Auto Capture.',
  payerIdRequired: 'Payer ID is required.',
  successUrl: 'PayPal transactions require valid URL for success_url',
  cancelUrl: 'PayPal transactions require valid URL for cancel_url',
} as const;

function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double && (d *= 2) > 9) d -= 9;
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

function cardBrand(number: string): string {
  if (SANDBOX_TEST_CARDS[number]) return SANDBOX_TEST_CARDS[number];
  if (/^4/.test(number)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'MasterCard';
  if (/^3[47]/.test(number)) return 'AmericanExpress';
  if (/^(6011|65|64[4-9])/.test(number)) return 'Discover';
  if (/^35/.test(number)) return 'JCB';
  if (/^3[068]/.test(number)) return 'DinersClub';
  return 'Unknown';
}

/** "12.50" → 1250; null unless a positive amount with at most two decimals. */
function parseAmount(value: unknown): number | null {
  const text = str(value).trim();
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return cents > 0 ? cents : null;
}

/** E00003 text for the first child element out of documented order, or null. */
function orderProblem(element: string, obj: Json, order: readonly string[]): string | null {
  let last = -1;
  for (const key of Object.keys(obj)) {
    const index = order.indexOf(key);
    if (index <= last) {
      const expected = order.slice(last + 1).join(', ');
      return `The element '${element}' in namespace '${NS}' has invalid child element '${key}' in namespace '${NS}'. List of possible elements expected: '${expected}' in namespace '${NS}'.`;
    }
    last = index;
  }
  return null;
}

function apiError(code: string, text: string, refId?: string): Json {
  return { ...(refId ? { refId } : {}), messages: { resultCode: 'Error', message: [{ code, text }] } };
}

const authCode = () => randomBytes(4).toString('hex').toUpperCase().slice(0, 6);

interface TxFields {
  responseCode: '1' | '2' | '3' | '4' | '5';
  transId: string;
  authCode?: string;
  refTransID?: string;
  accountNumber?: string;
  accountType?: string;
  avsResultCode?: string;
  message?: { code: string; description: string };
  error?: { errorCode: string; errorText: string };
  secureAcceptanceUrl?: string;
}

/** A createTransactionResponse in the gateway's field order. */
function txAnswer(f: TxFields, refId: string | undefined): Json {
  const ok = f.responseCode === '1' || f.responseCode === '4' || f.responseCode === '5';
  const transactionResponse: Json = {
    responseCode: f.responseCode,
    authCode: f.authCode ?? '',
    avsResultCode: f.avsResultCode ?? 'P',
    cvvResultCode: '',
    cavvResultCode: '',
    transId: f.transId,
    refTransID: f.refTransID ?? '',
    transHash: '',
    testRequest: '0',
    accountNumber: f.accountNumber ?? '',
    accountType: f.accountType ?? '',
  };
  if (f.message) transactionResponse.messages = [f.message];
  if (f.error) transactionResponse.errors = [f.error];
  if (f.secureAcceptanceUrl) transactionResponse.secureAcceptance = { SecureAcceptanceUrl: f.secureAcceptanceUrl };
  return {
    transactionResponse,
    ...(refId ? { refId } : {}),
    messages: ok
      ? { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] }
      : { resultCode: 'Error', message: [{ code: 'E00027', text: 'The transaction was unsuccessful.' }] },
  };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

const isHttpUrl = (value: string): boolean => {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

// ---------------------------------------------------------------------------------------------
// The plugin

/** The simulator's POST routes take no browser session (the app's CSRF check skips them). */
const NO_CSRF = { csrf: false } as FastifyContextConfig;

/**
 * Registers the gateway simulator: `app.register(gatewaySimulator, { prefix: '/_gateway',
 * apiLoginId, transactionKey, clientKey })`. Routes and behaviour are described at the top of this
 * file. Keeps its state in memory (or in `opts.state`); never logs card data, bank data or tokens.
 */
export const gatewaySimulator: FastifyPluginAsync<GatewaySimulatorOptions> = async (app, opts) => {
  const state = opts.state ?? new GatewaySimulatorState();
  const now = opts.now ?? Date.now;
  const delayMs = opts.delayMs ?? 0;
  const prefix = app.prefix;
  const hanging = new Set<ServerResponse>();

  const baseUrl = (request: FastifyRequest) => `${request.protocol}://${request.host}${prefix}`;

  // Every body arrives as text: the API answers parse errors itself, as the real one does.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  // Answers held back by the no-answer trigger end when the server closes.
  app.addHook('preClose', (done) => {
    for (const res of hanging) res.destroy();
    hanging.clear();
    done();
  });

  function sendApi(reply: FastifyReply, body: Json): FastifyReply {
    return reply
      .code(200)
      .header('content-type', 'application/json; charset=utf-8')
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'no-store')
      .send(Buffer.concat([BOM, Buffer.from(JSON.stringify(body), 'utf8')]));
  }

  function readJson(body: unknown): Json | null {
    if (typeof body !== 'string') return null;
    try {
      const parsed: unknown = JSON.parse(body.replace(/^\uFEFF/, ''));
      return isObject(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }

  // ----- tokenizer (securePaymentContainerRequest) -----

  function tokenize(root: Json): Json {
    const spc = root.securePaymentContainerRequest;
    if (!isObject(spc)) return apiError('E00003', 'The securePaymentContainerRequest element is missing.');
    const refId = str(spc.refId) || undefined;
    const auth = isObject(spc.merchantAuthentication) ? spc.merchantAuthentication : {};
    if (auth.name !== opts.apiLoginId || auth.clientKey !== opts.clientKey) {
      return apiError('E00007', 'User authentication failed due to invalid authentication values.', refId);
    }
    const data = isObject(spc.data) ? spc.data : {};
    const token = isObject(data.token) ? data.token : {};
    const expiresAt = now() + SIMULATOR_TRIGGERS.tokenLifetimeSeconds * 1000;
    let stored: StoredToken;
    if (token.cardNumber !== undefined) {
      const number = str(token.cardNumber).replace(/[\s.,:-]+/g, '');
      if (!/^\d{13,16}$/.test(number) || !luhn(number)) return apiError('E00003', 'The card number is invalid.', refId);
      const exp = /^(0[1-9]|1[0-2])(\d{2}|\d{4})$/.exec(str(token.expirationDate));
      if (!exp) return apiError('E00003', 'The expiration date is invalid.', refId);
      const year = exp[2].length === 2 ? 2000 + Number(exp[2]) : Number(exp[2]);
      if (Date.UTC(year, Number(exp[1]), 1) + 86_400_000 <= now())
        return apiError('E00003', 'The card has expired.', refId);
      if (token.cardCode !== undefined && token.cardCode !== '' && !/^\d{3,4}$/.test(str(token.cardCode))) {
        return apiError('E00003', 'The card code is invalid.', refId);
      }
      stored = {
        kind: 'card',
        accountType: cardBrand(number),
        last4: number.slice(-4),
        isTestCard: number in SANDBOX_TEST_CARDS,
        fingerprint: state.fingerprint(`card:${number}`),
        expiresAt,
      };
    } else if (token.accountNumber !== undefined) {
      const account = str(token.accountNumber);
      const routing = str(token.routingNumber);
      const name = str(token.nameOnAccount);
      if (!/^\d{1,17}$/.test(account)) return apiError('E00003', 'The account number is invalid.', refId);
      if (!/^\d{9}$/.test(routing)) return apiError('E00003', 'The routing number is invalid.', refId);
      if (name.length < 1 || name.length > 22) return apiError('E00003', 'The name on the account is invalid.', refId);
      if (!['checking', 'savings', 'businessChecking'].includes(str(token.accountType))) {
        return apiError('E00003', 'The account type is invalid.', refId);
      }
      stored = {
        kind: 'bank',
        accountType: 'eCheck',
        last4: account.slice(-4),
        isTestCard: false,
        fingerprint: state.fingerprint(`bank:${routing}:${account}`),
        expiresAt,
      };
    } else {
      return apiError('E00003', 'Card or bank account data is required.', refId);
    }
    const dataValue = state.issueToken(stored);
    return {
      opaqueData: { dataDescriptor: ACCEPT_DATA_DESCRIPTOR, dataValue },
      ...(refId ? { refId } : {}),
      messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
    };
  }

  // ----- createTransactionRequest -----

  interface Processed {
    body: Json;
    /** Set when a new transaction was recorded with the no-answer amount: its answer is never sent. */
    hang?: boolean;
  }

  function createTransaction(root: Json, request: FastifyRequest): Processed {
    const ctr = root.createTransactionRequest as Json;
    const problem = orderProblem('createTransactionRequest', ctr, CREATE_TRANSACTION_ORDER);
    if (problem) return { body: apiError('E00003', problem) };
    const refId = ctr.refId === undefined ? undefined : str(ctr.refId);
    if (refId !== undefined && refId.length > 20)
      return { body: apiError('E00003', `The 'refId' element is invalid: its length exceeds 20.`) };
    const auth = isObject(ctr.merchantAuthentication) ? ctr.merchantAuthentication : {};
    if (auth.name !== opts.apiLoginId || auth.transactionKey !== opts.transactionKey) {
      return { body: apiError('E00007', 'User authentication failed due to invalid authentication values.', refId) };
    }
    const tr = ctr.transactionRequest;
    if (!isObject(tr))
      return {
        body: apiError(
          'E00003',
          `The element 'createTransactionRequest' in namespace '${NS}' has incomplete content. List of possible elements expected: 'transactionRequest' in namespace '${NS}'.`,
          refId,
        ),
      };
    const payment = isObject(tr.payment) ? tr.payment : {};
    const nested: [string, unknown, readonly string[]][] = [
      ['transactionRequest', tr, TRANSACTION_REQUEST_ORDER],
      ['billTo', tr.billTo, BILL_TO_ORDER],
      ['customer', tr.customer, CUSTOMER_ORDER],
      ['order', tr.order, ORDER_ORDER],
      ['payPal', payment.payPal, PAYPAL_ORDER],
    ];
    for (const [name, value, order] of nested) {
      const p = isObject(value) ? orderProblem(name, value, order) : null;
      if (p) return { body: apiError('E00003', p, refId) };
    }
    if (tr.transactionType === 'authCaptureTransaction') {
      if (isObject(payment.opaqueData)) return chargeOpaque(tr, payment.opaqueData, refId);
      if (isObject(payment.payPal)) return startPaypal(tr, payment.payPal, refId, request);
      return { body: apiError('E00003', 'The simulator takes opaqueData (Accept.js) or payPal payments only.', refId) };
    }
    if (tr.transactionType === 'authCaptureContinueTransaction') return continuePaypal(tr, payment, refId);
    if (tr.transactionType === 'voidTransaction') return { body: voidCharge(tr, refId) };
    if (tr.transactionType === 'refundTransaction') return { body: refundCharge(tr, payment, refId) };
    return {
      body: apiError(
        'E00003',
        'The simulator supports authCaptureTransaction, authCaptureContinueTransaction, voidTransaction and refundTransaction only.',
        refId,
      ),
    };
  }

  function chargeOpaque(tr: Json, opaque: Json, refId: string | undefined): Processed {
    const amountCents = parseAmount(tr.amount);
    if (amountCents === null) {
      return {
        body: txAnswer(
          { responseCode: '3', transId: '0', error: { errorCode: '5', errorText: TEXT.invalidAmount } },
          refId,
        ),
      };
    }
    const token =
      opaque.dataDescriptor === ACCEPT_DATA_DESCRIPTOR ? state.takeToken(str(opaque.dataValue), now()) : undefined;
    if (!token) return { body: apiError('E00114', 'Invalid OTS Token.', refId) };

    const order = isObject(tr.order) ? tr.order : {};
    const billTo = isObject(tr.billTo) ? tr.billTo : {};
    const invoiceNumber = str(order.invoiceNumber) || undefined;
    const zip = str(billTo.zip).trim();
    const accountNumber = `XXXX${token.last4}`;
    const account = { accountNumber, accountType: token.accountType };
    const at = now();

    const windowSeconds = duplicateWindowOf(tr);
    if (windowSeconds === null)
      return {
        body: apiError(
          'E00003',
          `The 'duplicateWindow' setting is invalid: it must be 0 to ${MAX_DUPLICATE_WINDOW_MS / 1000} seconds.`,
          refId,
        ),
      };
    const duplicateKey = `${token.fingerprint}|${amountCents}|${invoiceNumber ?? ''}`;
    const earlier = state.checkDuplicate(duplicateKey, at, windowSeconds * 1000);
    if (earlier) {
      return {
        body: txAnswer(
          { responseCode: '3', transId: earlier, ...account, error: { errorCode: '11', errorText: TEXT.duplicate } },
          refId,
        ),
      };
    }

    let status: 'approved' | 'held' | 'declined';
    let declineReason: { errorCode: string; errorText: string } = { errorCode: '2', errorText: TEXT.declined };
    if (zip === SIMULATOR_TRIGGERS.declineZip) status = 'declined';
    else if (zip === SIMULATOR_TRIGGERS.avsMismatchZip && token.kind === 'card') {
      status = 'declined';
      declineReason = { errorCode: '27', errorText: TEXT.avsMismatch };
    } else if (token.kind === 'card' && !token.isTestCard) status = 'declined';
    else if (token.kind === 'bank' && amountCents > SIMULATOR_TRIGGERS.eCheckLimitCents) status = 'declined';
    else if (zip === SIMULATOR_TRIGGERS.heldZip) status = 'held';
    else status = 'approved';

    const transId = state.newTransId();
    state.rememberForDuplicates(duplicateKey, at, transId);
    const hang = amountCents === SIMULATOR_TRIGGERS.noAnswerAmountCents;
    state.record({
      transId,
      kind: token.kind,
      status,
      amountCents,
      invoiceNumber,
      refId,
      description: str(order.description) || undefined,
      ...account,
      createdAt: at,
      answered: !hang,
      refundedCents: 0,
    });
    const avsResultCode = token.kind === 'card' ? 'Y' : 'P';
    if (status === 'declined') {
      return {
        hang,
        body: txAnswer(
          {
            responseCode: '2',
            transId,
            ...account,
            avsResultCode: declineReason.errorCode === '27' ? 'N' : avsResultCode,
            error: declineReason,
          },
          refId,
        ),
      };
    }
    if (status === 'held') {
      return {
        hang,
        body: txAnswer(
          { responseCode: '4', transId, ...account, avsResultCode, message: { code: '252', description: TEXT.held } },
          refId,
        ),
      };
    }
    return {
      hang,
      body: txAnswer(
        {
          responseCode: '1',
          transId,
          ...account,
          avsResultCode,
          authCode: token.kind === 'card' ? authCode() : '',
          message: { code: '1', description: TEXT.approved },
        },
        refId,
      ),
    };
  }

  function startPaypal(tr: Json, payPal: Json, refId: string | undefined, request: FastifyRequest): Processed {
    const amountCents = parseAmount(tr.amount);
    if (amountCents === null) {
      return {
        body: txAnswer(
          { responseCode: '3', transId: '0', error: { errorCode: '5', errorText: TEXT.invalidAmount } },
          refId,
        ),
      };
    }
    const successUrl = str(payPal.successUrl);
    const cancelUrl = str(payPal.cancelUrl);
    if (!isHttpUrl(successUrl))
      return {
        body: txAnswer(
          { responseCode: '3', transId: '0', error: { errorCode: '2100', errorText: TEXT.successUrl } },
          refId,
        ),
      };
    if (!isHttpUrl(cancelUrl))
      return {
        body: txAnswer(
          { responseCode: '3', transId: '0', error: { errorCode: '2101', errorText: TEXT.cancelUrl } },
          refId,
        ),
      };
    const order = isObject(tr.order) ? tr.order : {};
    const transId = state.newTransId();
    const token = `EC-${randomBytes(9).toString('hex').toUpperCase().slice(0, 17)}`;
    const hang = amountCents === SIMULATOR_TRIGGERS.noAnswerAmountCents;
    state.record({
      transId,
      kind: 'paypal',
      status: 'awaiting_consent',
      amountCents,
      invoiceNumber: str(order.invoiceNumber) || undefined,
      refId,
      accountNumber: '',
      accountType: 'PayPal',
      createdAt: now(),
      answered: !hang,
      paypal: { token, successUrl, cancelUrl },
    });
    const consentBase = opts.consentOnReturnOrigin ? `${new URL(successUrl).origin}${prefix}` : baseUrl(request);
    const secureAcceptanceUrl = `${consentBase}/paypal/consent?token=${encodeURIComponent(token)}`;
    return {
      hang,
      body: txAnswer(
        {
          responseCode: '5',
          transId,
          accountType: 'PayPal',
          message: { code: '2000', description: TEXT.consent },
          secureAcceptanceUrl,
        },
        refId,
      ),
    };
  }

  function continuePaypal(tr: Json, payment: Json, refId: string | undefined): Processed {
    const refTransId = str(tr.refTransId);
    const payerId = isObject(payment.payPal) ? str(payment.payPal.payerID) : '';
    const fail = (errorCode: string, errorText: string, transId = '0'): Processed => ({
      body: txAnswer(
        { responseCode: '3', transId, refTransID: refTransId, accountType: 'PayPal', error: { errorCode, errorText } },
        refId,
      ),
    });
    const t = state.transaction(refTransId);
    if (!t || t.kind !== 'paypal' || !t.paypal) return fail('16', TEXT.notFound);
    if (!payerId) return fail('2006', TEXT.payerIdRequired);
    if (t.status === 'captured') return fail('2009', TEXT.notContinuable, t.transId);
    if (t.status !== 'consented' || t.paypal.payerId !== payerId) return fail('2102', TEXT.notAuthorized, t.transId);
    if (tr.amount !== undefined && parseAmount(tr.amount) !== t.amountCents)
      return fail('2009', TEXT.notContinuable, t.transId);
    t.status = 'captured';
    return {
      body: txAnswer(
        {
          responseCode: '1',
          transId: t.transId,
          refTransID: t.transId,
          authCode: authCode(),
          accountType: 'PayPal',
          message: { code: '1', description: TEXT.approved },
        },
        refId,
      ),
    };
  }

  // ----- settlement, void, refund, held transactions, reporting -----

  /** Settles what is due: captured charges and refunds older than the settlement delay. */
  const settleDue = () => state.settle(now() - SIMULATOR_TRIGGERS.settlementSeconds * 1000);

  const txError = (
    errorCode: string,
    errorText: string,
    refId: string | undefined,
    refTransID = '',
    transId = '0',
  ): Json => txAnswer({ responseCode: '3', transId, refTransID, error: { errorCode, errorText } }, refId);

  function voidCharge(tr: Json, refId: string | undefined): Json {
    settleDue();
    const refTransId = str(tr.refTransId);
    const t = state.transaction(refTransId);
    if (!t || t.kind === 'refund') return txError('16', TEXT.notFound, refId, refTransId);
    if (t.status === 'voided') return txError('310', TEXT.alreadyVoided, refId, refTransId, t.transId);
    if (t.settledAt !== undefined || !['approved', 'held', 'captured'].includes(t.status))
      return txError('16', TEXT.notFound, refId, refTransId);
    t.status = 'voided';
    return txAnswer(
      {
        responseCode: '1',
        transId: t.transId,
        refTransID: t.transId,
        authCode: '',
        accountNumber: t.accountNumber,
        accountType: t.accountType,
        message: { code: '1', description: TEXT.approved },
      },
      refId,
    );
  }

  function refundCharge(tr: Json, payment: Json, refId: string | undefined): Json {
    settleDue();
    const refTransId = str(tr.refTransId);
    const amountCents = parseAmount(tr.amount);
    if (amountCents === null) return txError('5', TEXT.invalidAmount, refId, refTransId);
    const t = state.transaction(refTransId);
    if (!t || t.kind === 'refund' || t.settledAt === undefined || !['approved', 'captured'].includes(t.status)) {
      return txError('54', TEXT.noCredit, refId, refTransId);
    }
    // The account must be named by the last four digits of the charge's own (card or bank).
    const given = isObject(payment.creditCard)
      ? str(payment.creditCard.cardNumber)
      : isObject(payment.bankAccount)
        ? str(payment.bankAccount.accountNumber)
        : '';
    if (t.kind !== 'paypal' && given.slice(-4) !== t.accountNumber.slice(-4))
      return txError('54', TEXT.noCredit, refId, refTransId);
    if ((t.refundedCents ?? 0) + amountCents > t.amountCents)
      return txError('55', TEXT.creditTooLarge, refId, refTransId);
    t.refundedCents = (t.refundedCents ?? 0) + amountCents;
    const transId = state.newTransId();
    const order = isObject(tr.order) ? tr.order : {};
    state.record({
      transId,
      kind: 'refund',
      status: 'approved',
      amountCents,
      refTransId,
      refId,
      invoiceNumber: str(order.invoiceNumber) || undefined,
      accountNumber: t.accountNumber,
      accountType: t.accountType,
      createdAt: now(),
      answered: true,
    });
    return txAnswer(
      {
        responseCode: '1',
        transId,
        refTransID: refTransId,
        authCode: '',
        accountNumber: t.accountNumber,
        accountType: t.accountType,
        message: { code: '1', description: TEXT.approved },
      },
      refId,
    );
  }

  function authenticated(root: Json): boolean {
    const auth = isObject(root.merchantAuthentication) ? root.merchantAuthentication : {};
    return auth.name === opts.apiLoginId && auth.transactionKey === opts.transactionKey;
  }

  const AUTH_FAILED = 'User authentication failed due to invalid authentication values.';
  const ok = (refId: string | undefined, extra: Json): Json => ({
    ...extra,
    ...(refId ? { refId } : {}),
    messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
  });

  function updateHeld(req: Json): Json {
    const refId = req.refId === undefined ? undefined : str(req.refId);
    const problem = orderProblem('updateHeldTransactionRequest', req, [
      'merchantAuthentication',
      'clientId',
      'refId',
      'heldTransactionRequest',
    ]);
    if (problem) return apiError('E00003', problem, refId);
    if (!authenticated(req)) return apiError('E00007', AUTH_FAILED, refId);
    const held = isObject(req.heldTransactionRequest) ? req.heldTransactionRequest : {};
    const action = str(held.action);
    if (action !== 'approve' && action !== 'decline')
      return apiError('E00003', `The 'action' element is invalid: '${action}'.`, refId);
    const refTransId = str(held.refTransId);
    const t = state.transaction(refTransId);
    if (!t || t.status !== 'held') return txError('16', TEXT.notFound, refId, refTransId);
    settleDue();
    if (action === 'approve') {
      t.status = 'approved';
      return txAnswer(
        {
          responseCode: '1',
          transId: t.transId,
          refTransID: t.transId,
          authCode: t.kind === 'card' ? authCode() : '',
          accountNumber: t.accountNumber,
          accountType: t.accountType,
          message: { code: '1', description: TEXT.approved },
        },
        refId,
      );
    }
    t.status = 'declined';
    return {
      ...txAnswer(
        {
          responseCode: '2',
          transId: t.transId,
          refTransID: t.transId,
          accountNumber: t.accountNumber,
          accountType: t.accountType,
          message: { code: '2', description: TEXT.declined },
        },
        refId,
      ),
      messages: { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] },
    };
  }

  function transactionDetails(req: Json): Json {
    const refId = req.refId === undefined ? undefined : str(req.refId);
    const problem = orderProblem('getTransactionDetailsRequest', req, [
      'merchantAuthentication',
      'clientId',
      'refId',
      'transId',
    ]);
    if (problem) return apiError('E00003', problem, refId);
    if (!authenticated(req)) return apiError('E00007', AUTH_FAILED, refId);
    settleDue();
    const t = state.transaction(str(req.transId));
    if (!t) return apiError('E00040', TEXT.recordNotFound, refId);
    const type =
      t.kind === 'refund'
        ? 'refundTransaction'
        : t.kind === 'paypal' && t.status !== 'captured'
          ? 'authOnlyTransaction'
          : 'authCaptureTransaction';
    const amount = (t.amountCents / 100).toFixed(2);
    const paymentOf =
      t.kind === 'bank'
        ? { bankAccount: { accountNumber: t.accountNumber, accountType: 'checking', echeckType: 'WEB' } }
        : t.kind === 'paypal'
          ? { payPal: {} }
          : { creditCard: { cardNumber: t.accountNumber, expirationDate: 'XXXX', cardType: t.accountType } };
    return ok(refId, {
      transaction: {
        transId: t.transId,
        ...(t.refTransId ? { refTransId: t.refTransId } : {}),
        submitTimeUTC: new Date(t.createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        transactionType: type,
        transactionStatus: reportedStatus(t),
        responseCode: t.status === 'declined' ? '2' : t.status === 'held' ? '4' : '1',
        order: {
          ...(t.invoiceNumber ? { invoiceNumber: t.invoiceNumber } : {}),
          ...(t.description ? { description: t.description } : {}),
        },
        authAmount: amount,
        settleAmount: amount,
        payment: paymentOf,
      },
      ...(t.refId ? { transrefId: t.refId } : {}),
    });
  }

  function unsettledList(req: Json): Json {
    const refId = req.refId === undefined ? undefined : str(req.refId);
    const problem = orderProblem('getUnsettledTransactionListRequest', req, [
      'merchantAuthentication',
      'clientId',
      'refId',
      'status',
      'sorting',
      'paging',
    ]);
    if (problem) return apiError('E00003', problem, refId);
    if (!authenticated(req)) return apiError('E00007', AUTH_FAILED, refId);
    settleDue();
    const paging = isObject(req.paging) ? req.paging : {};
    const limit = Number(str(paging.limit) || '1000');
    const page = Number(str(paging.offset) || '1');
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      return apiError('E00003', `The 'limit' element is invalid: it must be between 1 and 1000.`, refId);
    if (!Number.isInteger(page) || page < 1 || page > 100_000)
      return apiError('E00003', `The 'offset' element is invalid.`, refId);
    const pendingApproval = str(req.status) === 'pendingApproval';
    const unsettled = state
      .all()
      .filter((t) => t.settledAt === undefined && (!pendingApproval || t.status === 'held'))
      .sort((a, b) => a.createdAt - b.createdAt);
    const rows = unsettled.slice((page - 1) * limit, page * limit).map((t) => ({
      transId: t.transId,
      submitTimeUTC: new Date(t.createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      transactionStatus: reportedStatus(t),
      ...(t.invoiceNumber ? { invoiceNumber: t.invoiceNumber } : {}),
      accountType: t.accountType,
      accountNumber: t.accountNumber,
      settleAmount: (t.amountCents / 100).toFixed(2),
      marketType: 'eCommerce',
      product: 'Card Not Present',
    }));
    return ok(refId, { ...(rows.length ? { transactions: rows } : {}), totalNumInResultSet: unsettled.length });
  }

  // ----- routes -----

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '600')
      .send();

  app.options('/xml/v1/request.api', preflight);
  app.options('/tokenize', preflight);

  app.post('/xml/v1/request.api', { config: NO_CSRF }, async (request, reply) => {
    const root = readJson(request.body);
    if (!root) return sendApi(reply, apiError('E00003', 'Data at the root level is invalid.'));
    if (isObject(root.securePaymentContainerRequest)) return sendApi(reply, tokenize(root));
    if (isObject(root.updateHeldTransactionRequest))
      return sendApi(reply, updateHeld(root.updateHeldTransactionRequest));
    if (isObject(root.getTransactionDetailsRequest))
      return sendApi(reply, transactionDetails(root.getTransactionDetailsRequest));
    if (isObject(root.getUnsettledTransactionListRequest))
      return sendApi(reply, unsettledList(root.getUnsettledTransactionListRequest));
    if (!isObject(root.createTransactionRequest)) {
      return sendApi(
        reply,
        apiError(
          'E00003',
          'The simulator answers createTransactionRequest, updateHeldTransactionRequest, getTransactionDetailsRequest, getUnsettledTransactionListRequest and securePaymentContainerRequest only.',
        ),
      );
    }
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const processed = createTransaction(root, request);
    if (processed.hang) {
      // The gateway did the work but its answer is lost: hold the connection until the caller gives up.
      reply.hijack();
      const res = reply.raw;
      hanging.add(res);
      res.once('close', () => hanging.delete(res));
      return;
    }
    return sendApi(reply, processed.body);
  });

  app.post('/tokenize', { config: NO_CSRF }, async (request, reply) => {
    const root = readJson(request.body);
    if (!root || !isObject(root.securePaymentContainerRequest)) {
      return sendApi(reply, apiError('E00003', 'A securePaymentContainerRequest is expected.'));
    }
    return sendApi(reply, tokenize(root));
  });

  app.get('/Accept.js', async (request, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('access-control-allow-origin', '*')
      .send(acceptJsSource(`${baseUrl(request)}/tokenize`)),
  );

  app.get<{ Querystring: { token?: string } }>('/paypal/consent', async (request, reply) => {
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    const t = state.paypalTransaction(token);
    reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!t) return reply.code(404).send(consentPage('This PayPal session is unknown or has ended.', null));
    return reply.send(consentPage(null, { token, amountCents: t.amountCents, prefix }));
  });

  function consentAction(action: 'approve' | 'cancel') {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
      const token = form.get('token') ?? '';
      const t = state.paypalTransaction(token);
      if (!t) {
        return reply
          .code(404)
          .header('content-type', 'text/html; charset=utf-8')
          .send(consentPage('This PayPal session is unknown or has ended.', null));
      }
      const session = t.paypal;
      const approve = action === 'approve' ? t.status !== 'cancelled' : t.status === 'captured';
      if (approve) {
        if (t.status === 'awaiting_consent') {
          t.status = 'consented';
          session.payerId = randomBytes(10)
            .toString('hex')
            .toUpperCase()
            .replace(/[^A-Z0-9]/g, '')
            .slice(0, 13);
        }
        return reply.redirect(withQuery(session.successUrl, { token, PayerID: session.payerId ?? '' }), 303);
      }
      if (t.status !== 'captured') t.status = 'cancelled';
      return reply.redirect(withQuery(session.cancelUrl, { token }), 303);
    };
  }

  app.post('/paypal/consent/approve', { config: NO_CSRF }, consentAction('approve'));
  app.post('/paypal/consent/cancel', { config: NO_CSRF }, consentAction('cancel'));
};

/** The PayPal stand-in page: plain forms, no script, no inline style (CSP-friendly). */
function consentPage(
  notice: string | null,
  session: { token: string; amountCents: number; prefix: string } | null,
): string {
  const body = session
    ? `<p>This page stands in for PayPal in local runs and tests. No money moves.</p>
<p>Pay <strong>$${(session.amountCents / 100).toFixed(2)}</strong> to the merchant?</p>
<form method="post" action="${escapeHtml(session.prefix)}/paypal/consent/approve">
<input type="hidden" name="token" value="${escapeHtml(session.token)}">
<button type="submit">Approve</button>
</form>
<form method="post" action="${escapeHtml(session.prefix)}/paypal/consent/cancel">
<input type="hidden" name="token" value="${escapeHtml(session.token)}">
<button type="submit">Cancel</button>
</form>`
    : `<p>${escapeHtml(notice ?? '')}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>PayPal (simulator)</title>
<link rel="icon" href="data:,">
</head>
<body>
<main>
<h1>PayPal (simulator)</h1>
${body}
</main>
</body>
</html>
`;
}

/**
 * The Accept.js stand-in: `Accept.dispatchData(secureData, callback)` with Accept.js's validation,
 * codes and texts; on success it posts a securePaymentContainerRequest to `tokenizeUrl` and calls
 * back with opaqueData. `callback` may be a function or the name of a global function.
 */
function acceptJsSource(tokenizeUrl: string): string {
  return String.raw`/* GoodStanding gateway simulator: a stand-in for Authorize.Net Accept.js (local runs and tests only). */
(function (root) {
  'use strict';
  var TOKENIZE_URL = ${JSON.stringify(tokenizeUrl)};
  var TEXT = {
    I_WC_01: 'Successful.',
    E_WC_04: 'Please provide mandatory field to library.',
    E_WC_05: 'Please provide valid credit card number.',
    E_WC_06: 'Please provide valid expiration month.',
    E_WC_07: 'Please provide valid expiration year.',
    E_WC_08: 'Expiration date must be in the future.',
    E_WC_10: 'Please provide valid apiloginid.',
    E_WC_15: 'Please provide valid CVV.',
    E_WC_16: 'Please provide valid Zip code.',
    E_WC_17: 'Please provide valid card holder name.',
    E_WC_18: 'Client Key is required.',
    E_WC_19: 'An error occurred during processing. Please try again.',
    E_WC_21: 'User authentication failed due to invalid authentication values.',
    E_WC_23: 'Please provide either card information or bank information.',
    E_WC_24: 'Please provide valid account number.',
    E_WC_25: 'Please provide valid routing number.',
    E_WC_26: 'Please provide valid account holder name.',
    E_WC_27: 'Please provide valid account type.'
  };

  function text(value) { return value === undefined || value === null ? '' : String(value); }

  function luhn(digits) {
    var sum = 0, double = false;
    for (var i = digits.length - 1; i >= 0; i--) {
      var d = digits.charCodeAt(i) - 48;
      if (double && (d *= 2) > 9) d -= 9;
      sum += d;
      double = !double;
    }
    return sum % 10 === 0;
  }

  function checkCard(card, fail) {
    var number = text(card.cardNumber).replace(/[\s.,:-]+/g, '');
    if (!/^[0-9]{13,16}$/.test(number) || !luhn(number)) fail('E_WC_05');
    var month = text(card.month);
    if (month.length === 1) month = '0' + month;
    var monthOk = /^(0[1-9]|1[0-2])$/.test(month);
    if (!monthOk) fail('E_WC_06');
    var year = text(card.year);
    if (!/^([0-9]{2}|[0-9]{4})$/.test(year)) {
      fail('E_WC_07');
    } else if (monthOk) {
      var fullYear = year.length === 2 ? 2000 + Number(year) : Number(year);
      var lastMoment = new Date(fullYear, Number(month), 0, 23, 59, 59, 999);
      if (lastMoment.getTime() < Date.now()) fail('E_WC_08');
    }
    var token = { cardNumber: number, expirationDate: month + year };
    var cardCode = text(card.cardCode), zip = text(card.zip), fullName = text(card.fullName);
    if (cardCode !== '') { if (!/^[0-9]{3,4}$/.test(cardCode)) fail('E_WC_15'); token.cardCode = cardCode; }
    if (zip !== '') { if (zip.length > 20) fail('E_WC_16'); token.zip = zip; }
    if (fullName !== '') { if (fullName.length > 64) fail('E_WC_17'); token.fullName = fullName; }
    return token;
  }

  function checkBank(bank, fail) {
    var accountNumber = text(bank.accountNumber), routingNumber = text(bank.routingNumber);
    var nameOnAccount = text(bank.nameOnAccount), accountType = text(bank.accountType);
    if (!/^[0-9]{1,17}$/.test(accountNumber)) fail('E_WC_24');
    if (!/^[0-9]{9}$/.test(routingNumber)) fail('E_WC_25');
    if (nameOnAccount.length < 1 || nameOnAccount.length > 22) fail('E_WC_26');
    if (accountType !== 'checking' && accountType !== 'savings' && accountType !== 'businessChecking') fail('E_WC_27');
    return { accountNumber: accountNumber, routingNumber: routingNumber, nameOnAccount: nameOnAccount, accountType: accountType };
  }

  function newId() {
    if (root.crypto && typeof root.crypto.randomUUID === 'function') return root.crypto.randomUUID();
    return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, function (c) {
      var r = Math.random() * 16 | 0;
      return (c === 'x' ? r : (r & 3 | 8)).toString(16);
    });
  }

  function errorResponse(messages) { return { messages: { resultCode: 'Error', message: messages } }; }

  function dispatchData(secureData, callback) {
    var messages = [];
    function fail(code) {
      for (var i = 0; i < messages.length; i++) if (messages[i].code === code) return;
      messages.push({ code: code, text: TEXT[code] });
    }
    function respond(response) {
      setTimeout(function () {
        var handler = typeof callback === 'function' ? callback : root[callback];
        if (typeof handler === 'function') handler(response);
      }, 0);
    }

    if (!secureData || typeof secureData !== 'object' || !secureData.authData || typeof secureData.authData !== 'object') {
      fail('E_WC_04');
      respond(errorResponse(messages));
      return;
    }
    var hasCard = !!secureData.cardData, hasBank = !!secureData.bankData, token = null;
    if (hasCard === hasBank) fail('E_WC_23');
    else if (hasCard) token = checkCard(secureData.cardData, fail);
    else token = checkBank(secureData.bankData, fail);
    var apiLoginID = text(secureData.authData.apiLoginID), clientKey = text(secureData.authData.clientKey);
    if (apiLoginID === '' || apiLoginID.length >= 255) fail('E_WC_10');
    if (clientKey === '') fail('E_WC_18');
    if (messages.length) { respond(errorResponse(messages)); return; }

    var request = {
      securePaymentContainerRequest: {
        merchantAuthentication: { name: apiLoginID, clientKey: clientKey },
        data: { type: 'TOKEN', id: newId(), token: token }
      }
    };
    root.fetch(TOKENIZE_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify(request),
      credentials: 'omit',
      cache: 'no-store'
    }).then(function (res) { return res.text(); }).then(function (body) {
      var answer = JSON.parse(body.replace(/^\uFEFF/, ''));
      if (answer && answer.messages && answer.messages.resultCode === 'Ok' && answer.opaqueData) {
        respond({
          opaqueData: { dataDescriptor: answer.opaqueData.dataDescriptor, dataValue: answer.opaqueData.dataValue },
          messages: { resultCode: 'Ok', message: [{ code: 'I_WC_01', text: TEXT.I_WC_01 }] }
        });
        return;
      }
      var first = answer && answer.messages && answer.messages.message && answer.messages.message[0];
      var code = first && first.code === 'E00007' ? 'E_WC_21' : 'E_WC_19';
      respond(errorResponse([{ code: code, text: TEXT[code] }]));
    })['catch'](function () {
      respond(errorResponse([{ code: 'E_WC_19', text: TEXT.E_WC_19 }]));
    });
  }

  root.Accept = { dispatchData: dispatchData };
})(typeof window !== 'undefined' ? window : globalThis);
`;
}
