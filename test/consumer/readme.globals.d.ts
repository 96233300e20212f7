// What the examples of the README and of docs/ take as given (values a merchant's program already holds), declared
// so that the examples compile as they are written.
declare const payload: unknown;
declare const mid: string;
declare const orderId: string;
declare const txnToken: string;
declare const tokenIndexNumber: string;
declare const cvv: string;
declare const cardNumber: string;
declare const gatewayUrl: string;
declare const routerUrl: string;
declare const webhookUrl: string;
declare const merchantKey: string;
declare const servicePublicKeyPem: string;
declare const rawBody: Uint8Array;
declare const res: import('node:http').ServerResponse;
declare const log: { warn(...values: unknown[]): void };
declare const receiver: import('gateway-contract').WebhookReceiver;
declare const client: import('gateway-contract').GatewayClient;
declare const body: import('gateway-contract').RequestOf<'initiatePayment'>['body'];
declare const capturedRequests: { id: string; body: unknown; query: Record<string, string> }[];
declare function saveCardToken(token: {
  tokenIndexNumber: string;
  tokenStatus: string;
  cardSuffix: string;
}): Promise<void>;
declare function myStore(): import('gateway-contract/webhook').ReplayStore;
declare function myStoreOnAClosedConnection(): import('gateway-contract/webhook').ReplayStore;
