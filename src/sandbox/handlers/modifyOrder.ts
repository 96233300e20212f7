// Modify an order (section 4.6 and 3.3): only with the order's transaction token, only before its
// payment starts (1111 while one is in process, 410 closed, 201 paid), at most 5 times (then 1111,
// docs/decisions.md), the orderId kept and the amount, goods, shipping and extendInfo sent replaced.
import { orderOfToken, signatureMatches } from '../auth.js';
import { checkedPaise } from '../money.js';
import { MAX_MODIFICATIONS } from '../orders.js';
import type { HandlerContext, HandlerResult, SandboxRequest } from './context.js';

export function modifyOrder(ctx: HandlerContext, req: SandboxRequest<'modifyOrder'>): HandlerResult<'modifyOrder'> {
  const { config, store, clock } = ctx;
  const { head, body, query } = req;
  if (head.signature !== undefined && !signatureMatches(config, req, head.signature)) {
    return {
      code: '1001',
      message: 'Invalid signature',
      note: 'head.signature is optional, but when sent it must be the CHECKSUM of the body under the merchant key.',
    };
  }
  const issued = orderOfToken(store, head.token, clock.now());
  if (!issued)
    return {
      code: '1006',
      note: 'head.token is not a transaction token the sandbox issued, or it has expired (15 minutes).',
    };
  if (issued.mid !== query.mid)
    return { code: '2013', note: 'The query mid is not the mid of the order this token was issued for.' };
  if (issued.orderId !== query.orderId)
    return { code: '2014', note: 'The query orderId is not the order this token was issued for.' };
  const order = store.order(issued.mid, issued.orderId);
  if (!order) return { code: '1006', note: 'The order of this token no longer exists.' };
  if (order.status === 'CLOSED')
    return { code: '410', note: `The order is closed (${order.closedReason ?? 'closed'}).` };
  if (order.status === 'PAID') return { code: '201', note: 'The order is already paid.' };
  if (order.status === 'PENDING') return { code: '1111', note: 'A payment of this order is in process.' };
  if (order.modifications >= MAX_MODIFICATIONS)
    return { code: '1111', note: `The order was already modified ${MAX_MODIFICATIONS} times, the most allowed.` };
  if (body.txnAmount !== undefined) {
    const amount = checkedPaise(body.txnAmount.value);
    if (amount === 0) return { code: '2007', note: 'txnAmount.value must be more than zero.' };
    order.amount = amount;
  }
  if (body.goodsInfo !== undefined) order.goodsInfo = body.goodsInfo;
  if (body.shippingInfo !== undefined) order.shippingInfo = body.shippingInfo;
  if (body.extendInfo !== undefined) order.extendInfo = body.extendInfo;
  order.modifications++;
  return { code: '0000', note: `Order updated; ${MAX_MODIFICATIONS - order.modifications} modification(s) left.` };
}
