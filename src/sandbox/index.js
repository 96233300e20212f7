// The sandbox's public surface: start it, its documented defaults, and the txnInfo checksum it
// computes (so a merchant's verification code can be tested against it).
export { startSandbox } from './startSandbox.js';
export { DEFAULT_MID, DEFAULT_MERCHANT_KEY, DEFAULT_CLIENT_ID, DEFAULT_PORT, TXN_TOKEN_TTL_MS, DEFAULT_TOKEN_ACTIVATION_DELAY_MS } from './config.js';
export { txnInfoChecksumText, verifyTxnInfoChecksum } from './txnChecksum.js';
