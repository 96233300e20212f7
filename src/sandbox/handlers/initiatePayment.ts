// Pay an order (section 4.5 and the order rows of 3.3): the order's transaction token, the order's
// state (410 closed, 201 paid, 324 a payment already started), then the test instrument decides.
import { orderOfToken } from '../auth.js';
import type { HandlerContext, HandlerResult, SandboxRequest } from './context.js';

export function initiatePayment(
  ctx: HandlerContext,
  req: SandboxRequest<'initiatePayment'>,
): HandlerResult<'initiatePayment'> {
  const { config, store, clock, payments } = ctx;
  const { head, body } = req;
  if (!config.mids.includes(body.mid)) return { code: '2006', note: 'body.mid is not a merchant the sandbox serves.' };
  const issued = orderOfToken(store, head.token, clock.now());
  if (!issued || issued.mid !== body.mid || issued.orderId !== body.orderId) {
    return {
      code: '1006',
      note: 'head.token is not a transaction token of this order, or it has expired (15 minutes): get a new one with POST /sandbox/orders/{orderId}/token.',
    };
  }
  const order = store.order(body.mid, body.orderId);
  if (!order) return { code: '1006', note: 'The order of this token no longer exists.' };
  if (order.status === 'CLOSED')
    return { code: '410', note: `The order is closed (${order.closedReason ?? 'closed'}).` };
  if (order.status === 'PAID') return { code: '201', note: 'The order is already paid.' };
  if (order.status === 'PENDING')
    return {
      code: '324',
      note: 'A payment of this order is already in process: complete it (bank form or POST /sandbox/orders/{orderId}/complete).',
    };
  const requestType = order.kind === 'SUBSCRIPTION' ? 'SUBSCRIPTION' : 'PAYMENT';
  if (body.requestType !== requestType)
    return { code: '1001', message: 'Invalid requestType', note: `This order takes requestType ${requestType}.` };
  if (order.paymentModes && !order.paymentModes.includes(body.paymentMode)) {
    return { code: '317', note: `This order can be paid with ${order.paymentModes.join(', ')} only.` };
  }
  const started = payments.start(order, body);
  if ('code' in started)
    return { ...started, note: 'The test instrument is not valid for paying (see GET /sandbox/instruments).' };
  return { code: '0000', fields: started.fields };
}
