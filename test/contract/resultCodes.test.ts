// Section 7 as data: each response schema accepts exactly the code and status pairs of its
// operation's table, and the catalog derived from the contract holds the tables' oddities.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resultCatalogOf } from '../../scripts/lib/resultCatalog.mjs';
import { contractAjv, operationsOf, resolve } from '../helpers/contract.js';

const { doc, validator } = await contractAjv();
const catalog = resultCatalogOf(doc);

// The codes of each table of section 7, typed from the description (not from the contract).
const TABLES: Record<string, string> = {
  notifyTokenStatus:
    '00 100 150 400 401 405 406 407 408 409 410 730 440 442 443 500 502 1001 1002 1003 1004 1005 1006 1400 700 701 702 708 709 714 715 721 723 724 727 728 729 750 801',
  tokenizeCard:
    '00 100 150 400 401 406 407 408 409 410 730 440 442 443 500 502 1001 1002 1003 1004 1005 1006 1400 700 701 702 708 709 714 721 723 727 750 801 412 420 711 712 713 716',
  preAuthorize:
    '01 02 100 118 130 151 156 158 159 161 165 227 237 238 240 243 267 274 303 327 334 343 344 345 350 357 403 501 GE_1041 GE_1007 GE_1026 GE_1035 GE_1073 VF_1009 WM_1003 SR_1004 WM_1006 P2P_1000 UDL_0014 UDL_0015 UDL_0016 UDL_0017 RWL_0001 RWL_2001 ATE_00042 305 330 332 703 704 801 802 803 804 805 806',
  listSubscriptions: '3006 200 400 500',
  initiatePayment: '0000 501 2013 2014 1001 1010 1006 1007 2006 1011 2222 1012 312 9999 324 317 410 201',
  modifyOrder: '0000 1006 501 2013 2014 1011 2222 1001 1012 1111 2007 410 201',
  createSubscription: '0 1007 2013 2014 2007 4001 501 2006 2022 1102',
};

function responseWith(operationId: string, code: string, status: string) {
  const op = operationsOf(doc).find((o) => o.operationId === operationId)!.op;
  const media = op.responses['200'].content['application/json'];
  const { fields, location } = catalog[operationId];
  const codeOf = (v: any) =>
    location
      .split('/')
      .filter(Boolean)
      .reduce((node: any, key: string) => node?.[key], v)?.[fields.code];
  // Start from the example of that code when there is one (a pending pre-auth carries a txnToken).
  const all = Object.values<any>(media.examples).map((e) => resolve(doc, e.$ref).value);
  const value = structuredClone(all.find((v) => codeOf(v) === code) ?? all[0]);
  const target = location
    .split('/')
    .filter(Boolean)
    .reduce((node: any, key: string) => node[key], value);
  target[fields.code] = code;
  target[fields.status] = status;
  // Success-only fields are dropped so that only the pair decides.
  return { value, schema: media.schema.$ref.split('/').pop() };
}

describe('result-code tables', () => {
  for (const [operationId, codes] of Object.entries(TABLES)) {
    it(`${operationId}: the catalog holds exactly the codes of its table`, () => {
      expect(catalog[operationId].codes.map((c: any) => c.code).sort()).toEqual(codes.split(' ').sort());
    });

    it(`${operationId}: the response accepts each code with its own status, and no other pair`, () => {
      const statuses = [...new Set(catalog[operationId].codes.map((c: any) => c.status))] as string[];
      for (const entry of catalog[operationId].codes) {
        const ok = responseWith(operationId, entry.code, entry.status);
        const validate = validator(ok.schema);
        expect(validate(ok.value), `${entry.code}/${entry.status}: ${JSON.stringify(validate.errors)}`).toBe(true);
        for (const other of statuses.filter((s) => s !== entry.status)) {
          const bad = responseWith(operationId, entry.code, other);
          expect(validate(bad.value), `${entry.code}/${other} must be rejected`).toBe(false);
        }
      }
      const unknown = responseWith(operationId, 'NOT_A_CODE', statuses[0]);
      expect(validator(unknown.schema)(unknown.value)).toBe(false);
    });
  }

  it('keeps the oddities of the tables', () => {
    const code = (op: string, c: string) => catalog[op].codes.find((e: any) => e.code === c);
    expect(code('createSubscription', '4001').messages).toHaveLength(7);
    expect(code('createSubscription', '1102').messages).toHaveLength(13);
    expect(code('createSubscription', '1102').status).toBe('TXN_FAILURE');
    expect(code('createSubscription', '4001').status).toBe('F');
    expect(code('preAuthorize', '240').tables).toEqual(['result', 'error']);
    expect(code('preAuthorize', '806').tables).toEqual(['error']);
    expect(code('notifyTokenStatus', '801').status).toBe('PENDING');
    expect(code('listSubscriptions', '400').status).toBe('FAILURE');
    expect(catalog.preAuthorize.fields).toEqual({ code: 'statusCode', status: 'status', message: 'statusMessage' });
    for (const c of ['405', '715', '724', '728', '729']) expect(code('tokenizeCard', c), c).toBeUndefined();
  });
});

describe('next steps (x-next-step, DECISIONS.md D-52)', () => {
  const actions = doc['x-next-step-actions'];
  const decisions = new Set(
    [
      ...readFileSync(new URL('../../openapi/DECISIONS.md', import.meta.url), 'utf8').matchAll(/^## (D-\d{2,3}) /gm),
    ].map((m) => m[1]),
  );

  it('has a closed list of actions, each described', () => {
    expect(Object.keys(actions).length).toBeGreaterThan(5);
    for (const [action, meaning] of Object.entries(actions)) {
      expect(action).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(String(meaning).length, action).toBeGreaterThan(20);
    }
  });

  for (const [operationId, entry] of Object.entries<any>(catalog)) {
    it(`${operationId}: every code has a next step of the list, quoted from the description or decided in a record`, () => {
      for (const c of entry.codes) {
        const where = `${operationId} ${c.code}`;
        expect(Object.keys(actions), where).toContain(c.nextStep?.action);
        expect(Object.keys(c.nextStep).sort(), where).toEqual(
          c.nextStep.source ? ['action', 'source'] : ['action', 'decision'],
        );
        if (c.nextStep.source) expect(c.nextStep.source, where).toMatch(/^\d+(\.\d+)*\b[^"]*: ".+"$/);
        else
          expect(
            decisions.has(c.nextStep.decision),
            `${where}: ${c.nextStep.decision} is not a record of DECISIONS.md`,
          ).toBe(true);
      }
    });
  }

  it('says what the description says, where it says it', () => {
    const step = (op: string, code: string) => catalog[op].codes.find((e: any) => e.code === code).nextStep;
    expect(step('preAuthorize', 'SR_1004')).toMatchObject({
      action: 'query-status',
      source: expect.stringMatching(/^7\.3 Rules: "When SR_1004 is returned/),
    });
    expect(step('preAuthorize', 'WM_1006')).toMatchObject({
      action: 'retry-new-order-id',
      source: expect.stringMatching(/^7\.3 Rules: "when WM_1006/),
    });
    expect(step('preAuthorize', '02')).toMatchObject({
      action: 'continue-flow',
      source: expect.stringMatching(/^3\.3/),
    });
    for (const op of ['initiatePayment', 'modifyOrder']) {
      expect(step(op, '201')).toMatchObject({ action: 'already-paid', source: expect.stringMatching(/^3\.3/) });
      expect(step(op, '410')).toMatchObject({ action: 'order-closed', source: expect.stringMatching(/^3\.3/) });
      expect(step(op, '1006').action).toBe('new-txn-token');
    }
    for (const code of ['1001', '1007', '1011']) expect(step('initiatePayment', code).action).toBe('fix-request');
    expect(step('initiatePayment', '1010')).toMatchObject({
      action: 'contact-service',
      source: expect.stringContaining('contact the helpdesk'),
    });
    expect(step('initiatePayment', '324').action).toBe('query-status');
    expect(step('listSubscriptions', '500').action).toBe('retry-later');
    // Success is nothing more to do; a pending code never asks for the request again.
    for (const entry of Object.values<any>(catalog))
      for (const c of entry.codes) {
        if (c.outcome === 'success') expect(c.nextStep.action, c.code).toBe('none');
        if (c.outcome === 'pending') expect(['wait', 'continue-flow'], c.code).toContain(c.nextStep.action);
      }
  });

  it('refuses a code without a next step, with an action not in the list, or with both a source and a decision', () => {
    const broken = (edit: (branch: any) => void) => {
      const copy = structuredClone(doc);
      edit(copy.components.schemas.PaymentResultInfo.oneOf[0]);
      return () => resultCatalogOf(copy);
    };
    expect(
      broken((b) => {
        delete b['x-next-step'];
      }),
    ).toThrow(/initiatePayment 0000: no x-next-step/);
    expect(
      broken((b) => {
        b['x-next-step'].action = 'pray';
      }),
    ).toThrow(/"pray" is not one of x-next-step-actions/);
    expect(
      broken((b) => {
        b['x-next-step'].source = '7.5: "Success"';
      }),
    ).toThrow(/exactly one of source and decision/);
    expect(
      broken((b) => {
        b['x-next-step'].decision = 'see above';
      }),
    ).toThrow(/must name a decision record/);
  });

  it('takes a decision record of three digits as it takes one of two', () => {
    const copy = structuredClone(doc);
    const branch = copy.components.schemas.PaymentResultInfo.oneOf[0];
    branch['x-next-step'] = { action: branch['x-next-step'].action, decision: 'D-146' };
    expect(resultCatalogOf(copy).initiatePayment.codes[0].nextStep).toEqual({
      action: branch['x-next-step'].action,
      decision: 'D-146',
    });
  });
});

describe('idempotence (x-idempotent, docs/decisions.md D-54)', () => {
  it('every operation says whether it may be sent twice; only list subscriptions may', () => {
    const said = Object.fromEntries(
      operationsOf(doc)
        .filter((o) => o.kind === 'operation')
        .map((o) => [o.operationId, o.op['x-idempotent']]),
    );
    expect(said).toEqual({
      tokenizeCard: false,
      preAuthorize: false,
      listSubscriptions: true,
      initiatePayment: false,
      modifyOrder: false,
      createSubscription: false,
    });
  });
});
