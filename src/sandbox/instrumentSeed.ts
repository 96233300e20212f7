// The built-in seed of test instruments: cards, wallets, UPI addresses, banks and MPINs, each with
// the outcome the sandbox gives it (see docs/sandbox.md, "Test instruments"). A seed of the same form,
// as a JSON file, replaces it with `--instruments` or `startSandbox({ instruments })`.
export const INSTRUMENT_SEED = {
  about:
    "The sandbox's test instruments. Each entry says what the sandbox does when it meets the instrument. Public test values only: none of them is a real card, account or secret.",
  cards: {
    about:
      'Card numbers for tokenize (inside encryptedCardData) and pay (NEW_CARD cardUniqueId, CARD_TOKEN token PAN, or a saved token made from the card). tokenize: ACTIVE, INIT_THEN_ACTIVE, INIT_THEN_FAILED, FAILED, or a failure code of the tokenize table (no token is made). pay: success, failure, pending (the bank never answers until a control call completes it) or invalid (312 at once).',
    numbers: [
      {
        number: '4111111111111111',
        scheme: 'VISA',
        cardType: 'CC',
        issuingBankName: 'Sandbox Bank',
        tokenize: 'ACTIVE',
        pay: 'success',
      },
      {
        number: '5555555555554444',
        scheme: 'MASTER',
        cardType: 'CC',
        issuingBankName: 'Sandbox Bank',
        tokenize: 'INIT_THEN_ACTIVE',
        pay: 'success',
      },
      {
        number: '5105105105105100',
        scheme: 'MASTER',
        cardType: 'DC',
        issuingBankName: 'Sandbox Bank',
        tokenize: 'INIT_THEN_FAILED',
        pay: 'success',
      },
      {
        number: '4000000000000002',
        scheme: 'VISA',
        cardType: 'DC',
        issuingBankName: 'Sandbox Bank',
        tokenize: 'ACTIVE',
        pay: 'failure',
      },
      {
        number: '4000000000000010',
        scheme: 'VISA',
        cardType: 'CC',
        issuingBankName: 'Sandbox Bank',
        tokenize: 'ACTIVE',
        pay: 'pending',
      },
      {
        number: '4000000000000036',
        scheme: 'VISA',
        cardType: 'CC',
        issuingBankName: 'Sandbox Bank',
        tokenize: 'ACTIVE',
        pay: 'invalid',
      },
      {
        number: '4000000000000069',
        scheme: 'VISA',
        cardType: 'CC',
        issuingBankName: 'Sandbox Bank',
        tokenize: 'FAILED',
        pay: 'success',
      },
      {
        number: '6521111111111110',
        scheme: 'RUPAY',
        cardType: 'DC',
        issuingBankName: 'Sandbox Co-operative Bank',
        tokenize: 'ACTIVE',
        pay: 'success',
      },
      {
        number: '4000000000000127',
        scheme: 'VISA',
        cardType: 'CC',
        issuingBankName: 'Sandbox Bank',
        tokenize: '712',
        pay: 'success',
      },
      {
        number: '4000000000000119',
        scheme: 'VISA',
        cardType: 'CC',
        issuingBankName: 'Sandbox Bank',
        tokenize: '716',
        pay: 'failure',
      },
      {
        number: '378282246310005',
        scheme: 'AMEX',
        cardType: 'CC',
        issuingBankName: 'Sandbox Bank',
        tokenize: '420',
        pay: 'success',
      },
    ],
    otherNumbers:
      'Any other number that passes the Luhn check: scheme from its first digits (4 VISA, 51-55 and 2221-2720 MASTER, 60, 65, 81, 82 and 508 RUPAY, anything else not tokenizable: 420), credit card, tokenize ACTIVE, pay success.',
  },
  upi: {
    about: 'VPAs for UPI collect (payerAccount). Any other VPA behaves as default.',
    default: 'success',
    vpas: {
      'success@upi': 'success',
      'failure@upi': 'failure',
      'pending@upi': 'pending',
    },
  },
  banks: {
    about:
      'Bank codes for NET_BANKING (channelCode), EMI (emiInfo.channelCode) and add-money (bankCode). Any other code is refused with 1011.',
    codes: {
      SBI: 'success',
      HDFC: 'success',
      ICICI: 'failure',
      AXIS: 'pending',
    },
  },
  ppbl: {
    about: 'MPINs of the payments bank account (PPBL). Any other MPIN is a wrong MPIN: the payment fails.',
    default: 'failure',
    mpins: {
      '1234': 'success',
      '9999': 'pending',
      '0000': 'failure',
    },
  },
  wallets: {
    about:
      "Wallets of the service, named by the customer's SSO token (svcSsoToken in pre-auth and in order creation). balance pays WALLET orders and is blocked by BALANCE pre-auths; digitalCredit pays PAYMENT_DIGITAL_CREDIT orders and is blocked by SVC_DIGITAL_CREDIT pre-auths. An order created without an SSO token uses the default wallet. pay: pending makes every payment from the wallet wait for a control call.",
    default: 'sso-funded-wallet',
    accounts: [
      {
        name: 'funded',
        svcSsoToken: 'sso-funded-wallet',
        balance: '1000000.00',
        digitalCredit: '50000.00',
      },
      {
        name: 'low',
        svcSsoToken: 'sso-low-balance',
        balance: '10.00',
        digitalCredit: '0.00',
      },
      {
        name: 'slow',
        svcSsoToken: 'sso-pending-wallet',
        balance: '10000.00',
        digitalCredit: '10000.00',
        pay: 'pending',
      },
    ],
  },
  limits: {
    about: 'Limits the description leaves unshown, as the sandbox sets them.',
    preAuthMaxBlockSeconds: 604800,
    upiSubscriptionMaxAmount: '15000.00',
    subscriptionMaxAmount: '1000000.00',
  },
};
