/**
 * The Authorize.Net JSON API's element orders and constants (AnetApiSchema.xsd), shared by the
 * gateway adapter (src/server/providers/payments/authorize-net.ts), which writes requests in this
 * order, and the local gateway peer (src/server/local-peers/gateway-simulator.ts), which refuses
 * requests out of it with E00003 as the gateway does (docs/payments.md "The local gateway peer").
 */

/** The dataDescriptor Accept.js gives both card and bank (eCheck) tokens. */
export const ACCEPT_DATA_DESCRIPTOR = 'COMMON.ACCEPT.INAPP.PAYMENT';

/**
 * Documented element order of `transactionRequest` (AnetApiSchema.xsd, transactionRequestType).
 * The gateway answers E00003 when a child element comes out of this order.
 */
export const TRANSACTION_REQUEST_ORDER = [
  'transactionType',
  'amount',
  'currencyCode',
  'payment',
  'profile',
  'solution',
  'callId',
  'terminalNumber',
  'authCode',
  'refTransId',
  'splitTenderId',
  'order',
  'lineItems',
  'tax',
  'duty',
  'shipping',
  'taxExempt',
  'poNumber',
  'customer',
  'billTo',
  'shipTo',
  'customerIP',
  'cardholderAuthentication',
  'retail',
  'employeeId',
  'transactionSettings',
  'userFields',
  'surcharge',
  'merchantDescriptor',
  'subMerchant',
  'tip',
  'processingOptions',
  'subsequentAuthInformation',
  'otherTax',
  'shipFrom',
  'authorizationIndicatorType',
] as const;

/** Element order of `createTransactionRequest` itself. */
export const CREATE_TRANSACTION_ORDER = ['merchantAuthentication', 'clientId', 'refId', 'transactionRequest'] as const;
/** Element order of `billTo` (customerAddressType). */
export const BILL_TO_ORDER = [
  'firstName',
  'lastName',
  'company',
  'address',
  'city',
  'state',
  'zip',
  'country',
  'phoneNumber',
  'faxNumber',
  'email',
] as const;
/** Element order of `customer` (customerDataType). */
export const CUSTOMER_ORDER = ['type', 'id', 'email'] as const;
/** Element order of `order` (orderType). */
export const ORDER_ORDER = ['invoiceNumber', 'description'] as const;
/** Element order of the reporting and held-transaction requests (ANetApiRequest, then their own). */
export const GET_TRANSACTION_DETAILS_ORDER = ['merchantAuthentication', 'clientId', 'refId', 'transId'] as const;
export const GET_UNSETTLED_LIST_ORDER = [
  'merchantAuthentication',
  'clientId',
  'refId',
  'status',
  'sorting',
  'paging',
] as const;
export const UPDATE_HELD_ORDER = ['merchantAuthentication', 'clientId', 'refId', 'heldTransactionRequest'] as const;
/** Element order of `heldTransactionRequest` (heldTransactionRequestType). */
export const HELD_TRANSACTION_ORDER = ['action', 'refTransId'] as const;
/** Element order of `payment.creditCard` and `payment.bankAccount` when referring to a charge (refunds). */
export const CREDIT_CARD_ORDER = ['cardNumber', 'expirationDate', 'cardCode'] as const;
export const BANK_ACCOUNT_ORDER = [
  'accountType',
  'routingNumber',
  'accountNumber',
  'nameOnAccount',
  'echeckType',
  'bankName',
  'checkNumber',
] as const;
/** Most transactions getUnsettledTransactionListRequest answers per page. */
export const UNSETTLED_PAGE_LIMIT = 1000;

/** Element order of `payment.payPal` (payPalType). */
export const PAYPAL_ORDER = [
  'successUrl',
  'cancelUrl',
  'paypalLc',
  'paypalHdrImg',
  'paypalPayflowcolor',
  'payerID',
] as const;
