const e = await import('gateway-contract/validators/initiatePayment');
if (
  !e.validateRequest(
    {
      head: { requestTimeStamp: '1768971330000', channelId: 'WEB', tokenType: 'TXN_TOKEN', token: 'T', version: 'v1' },
      body: { mid: 'MERCHANT0001', orderId: 'ORDER-1001', requestType: 'PAYMENT', paymentMode: 'UPI_INTENT' },
    },
    { query: { mid: 'MERCHANT0001', orderId: 'ORDER-1001' } },
  ).valid
)
  process.exit(1);
