import { bankDataForTokenizer } from '../../../shared/rules/aba.ts';
import type { FieldErrors } from '../../../shared/validation.ts';

/**
 * The card payment provider's browser tokenizer (docs/requirements/calls.md third-party calls; docs/requirements/platform.md §5.8):
 * Authorize.Net Accept.js, or the gateway simulator's stand-in with the same API. Card and bank
 * numbers go from the browser to the tokenizer only; our server receives the opaque data.
 */

/** opaqueData answered by Accept.dispatchData. */
export interface OpaqueData {
  dataDescriptor: string;
  dataValue: string;
}

/** The public settings the billing screen receives (GET /api/payments/screen `gateway`). */
export interface TokenizerSettings {
  accept_js_url: string;
  api_login_id: string;
  client_key: string;
}

interface AcceptResponse {
  messages: { resultCode: 'Ok' | 'Error'; message: { code: string; text: string }[] };
  opaqueData?: OpaqueData;
}

interface AcceptApi {
  dispatchData(secureData: Record<string, unknown>, callback: (response: AcceptResponse) => void): void;
}

declare global {
  interface Window {
    Accept?: AcceptApi;
  }
}

/** docs/requirements/errors.md: the provider's error codes shown under a field, with the provider's text. */
const TOKENIZER_FIELD_BY_CODE: Readonly<Record<string, string>> = {
  E_WC_05: 'cardNumber',
  E_WC_06: 'expMonth',
  E_WC_07: 'expYear',
  E_WC_08: 'expYear',
  E_WC_15: 'cardCode',
  E_WC_24: 'accountNumber',
  E_WC_25: 'routingNumber',
  E_WC_26: 'nameOnAccount',
  E_WC_27: 'accountType',
};

/** Thrown when the tokenizer refuses the data: `errors` maps fields (docs/requirements/errors.md) to the provider's text. */
export class TokenizerError extends Error {
  readonly errors: FieldErrors;
  readonly code: string;
  constructor(message: string, errors: FieldErrors, code: string) {
    super(message);
    this.errors = errors;
    this.code = code;
  }
}

let loading: Promise<AcceptApi> | null = null;

/**
 * Loads the tokenizer script once per page (a script tag, as Authorize.Net requires) and resolves
 * its `Accept` object. @throws TokenizerError when the script cannot be loaded.
 */
function loadAcceptJs(url: string): Promise<AcceptApi> {
  if (window.Accept) return Promise.resolve(window.Accept);
  loading ??= new Promise<AcceptApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () =>
      window.Accept
        ? resolve(window.Accept)
        : reject(new TokenizerError('The payment form could not load.', {}, 'load'));
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(
        new TokenizerError('The payment form could not load. Please check your connection and try again.', {}, 'load'),
      );
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** Card data as the tokenizer takes it (docs/requirements/calls.md): number without dashes, 'MM', 'YYYY'. */
export interface CardData {
  cardNumber: string;
  month: string;
  year: string;
  cardCode: string;
  zip?: string;
  fullName?: string;
}

/** Bank data as typed; cut to the docs/requirements/validation.md lengths here (bankDataForTokenizer). */
export interface BankData {
  accountNumber: string;
  routingNumber: string;
  nameOnAccount: string;
  accountType: string;
}

/**
 * Sends card or bank data to the tokenizer and resolves its opaque data.
 * @throws TokenizerError with the field errors of docs/requirements/errors.md (E_WC codes) or a general message.
 */
export async function tokenize(
  settings: TokenizerSettings,
  data: { cardData: CardData } | { bankData: BankData },
): Promise<OpaqueData> {
  const accept = await loadAcceptJs(settings.accept_js_url);
  const secureData: Record<string, unknown> = {
    authData: { apiLoginID: settings.api_login_id, clientKey: settings.client_key },
  };
  if ('cardData' in data) secureData.cardData = data.cardData;
  else secureData.bankData = bankDataForTokenizer(data.bankData);
  const response = await new Promise<AcceptResponse>((resolve) => accept.dispatchData(secureData, resolve));
  if (response.messages.resultCode === 'Ok' && response.opaqueData) return response.opaqueData;
  const errors: FieldErrors = {};
  for (const m of response.messages.message ?? []) {
    const field = TOKENIZER_FIELD_BY_CODE[m.code];
    if (field && !errors[field]) errors[field] = [m.text];
  }
  const first = response.messages.message?.[0];
  throw new TokenizerError(first?.text ?? 'The payment details could not be checked.', errors, first?.code ?? '');
}
