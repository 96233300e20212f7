// The contract's change gate: every edit below is made to an in-memory copy of the contract
// bundled fresh from openapi/, and the check must classify it by what it does to a merchant:
// breaking (a major version), notable (a minor one) or patch (documentation), with its operation,
// side and a JSON Pointer into the bundle. Then the version rules, the report, the CHANGELOG, the
// docs section, and the two commands on real files.

import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import {
  CHANGELOG_INTRO,
  contractBlock,
  contractChangesOf,
  initialBlock,
  releasesOf,
  sectionOf,
  versionsOf,
  withRelease,
} from '../../scripts/lib/changelog.mjs';
import { checkContract, renderReport } from '../../scripts/lib/changeReport.mjs';
import { diffContracts, LEVELS } from '../../scripts/lib/contractDiff.mjs';
import { bumpBetween, compareVersions, judgeVersions, nextVersions } from '../../scripts/lib/contractVersion.mjs';
import { changesSection, docsDocument } from '../../scripts/lib/docs.mjs';
import { resultCatalogOf } from '../../scripts/lib/resultCatalog.mjs';
import { runNode } from '../helpers/cli.js';
import { bundledContract, resolve, root } from '../helpers/contract.js';

const base = await bundledContract();
const PAY = '/aoa-acquiring-biz/v2/payment';
const S = (doc: any) => doc.components.schemas;

type Change = ReturnType<typeof diffContracts>[number];

/** A copy of the contract with one edit. */
function edited(edit: (doc: any) => void): any {
  const copy = structuredClone(base);
  edit(copy);
  return copy;
}

/** The changes from the contract to an edited copy. */
function changesAfter(edit: (doc: any) => void): Change[] {
  return diffContracts(base, edited(edit));
}

/** The changes from an edited copy back to the contract: the opposite edit. */
function changesBefore(edit: (doc: any) => void): Change[] {
  return diffContracts(edited(edit), base);
}

/** A copy of `doc` with a JSON Patch (RFC 6902: add, remove, replace; `-` appends to a list) applied. */
function patched(doc: any, patch: { op: 'add' | 'remove' | 'replace'; path: string; value?: unknown }[] | null): any {
  let copy = structuredClone(doc);
  for (const { op, path, value } of patch ?? []) {
    if (path === '') {
      copy = structuredClone(value);
      continue;
    }
    const keys = path
      .slice(1)
      .split('/')
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop() as string;
    const parent = keys.reduce((node, key) => node?.[key], copy);
    if (parent === undefined || parent === null) throw new Error(`${op} ${path}: no such place`);
    if (Array.isArray(parent)) {
      const at = last === '-' ? parent.length : Number(last);
      if (op === 'add') parent.splice(at, 0, structuredClone(value));
      else parent.splice(at, 1, ...(op === 'replace' ? [structuredClone(value)] : []));
    } else if (op === 'remove') {
      if (!Object.hasOwn(parent, last)) throw new Error(`remove ${path}: no such place`);
      delete parent[last];
    } else parent[last] = structuredClone(value);
  }
  return copy;
}

/** The one change of a list (fails, showing them, when there are more or none). */
function only(changes: Change[]): Change {
  expect(changes, JSON.stringify(changes, null, 1)).toHaveLength(1);
  return changes[0];
}

describe('what the merchant sends: requests are breaking when the service accepts less', () => {
  it('a request enum value removed is breaking, at the enum of the schema that defines it', () => {
    const c = only(
      changesAfter((d) => {
        S(d).WalletInfo.properties.paymentFlow.enum = ['PAY'];
      }),
    );
    expect(c).toMatchObject({
      operation: 'initiatePayment',
      direction: 'request',
      level: 'breaking',
      kind: 'value-removed',
      location: '/components/schemas/WalletInfo/properties/paymentFlow/enum',
      field: 'body.walletInfo.paymentFlow',
    });
    expect(c.message).toBe('request body.walletInfo.paymentFlow: value "ADDNAPAY" no longer accepted');
  });

  it('a request enum value added is notable, not breaking', () => {
    const c = only(
      changesAfter((d) => {
        S(d).WalletInfo.properties.paymentFlow.enum.push('PAYLATER');
      }),
    );
    expect(c).toMatchObject({ operation: 'initiatePayment', level: 'notable', kind: 'value-added' });
    expect(c.message).toContain('"PAYLATER"');
  });

  it('an optional request field made required is breaking; the opposite is notable', () => {
    const made = only(
      changesAfter((d) => {
        S(d).WalletInfo.required.push('walletType');
      }),
    );
    expect(made).toMatchObject({
      level: 'breaking',
      kind: 'required-added',
      field: 'body.walletInfo.walletType',
      location: '/components/schemas/WalletInfo/required',
    });
    expect(made.message).toBe('request body.walletInfo.walletType: now required');
    const relaxed = only(
      changesBefore((d) => {
        S(d).WalletInfo.required.push('walletType');
      }),
    );
    expect(relaxed).toMatchObject({ level: 'notable', kind: 'required-removed' });
  });

  it('a new required request field is one breaking change; a new optional one is notable', () => {
    const required = only(
      changesAfter((d) => {
        S(d).WalletInfo.properties.walletPin = { type: 'string' };
        S(d).WalletInfo.required.push('walletPin');
      }),
    );
    expect(required).toMatchObject({
      level: 'breaking',
      kind: 'field-added',
      location: '/components/schemas/WalletInfo/properties/walletPin',
    });
    expect(required.message).toContain('new required field');
    const optional = only(
      changesAfter((d) => {
        S(d).WalletInfo.properties.walletNote = { type: 'string' };
      }),
    );
    expect(optional).toMatchObject({ level: 'notable', kind: 'field-added', field: 'body.walletInfo.walletNote' });
  });

  it('a request field removed is breaking (the request objects are closed)', () => {
    const c = only(
      changesAfter((d) => {
        delete S(d).WalletInfo.properties.walletType;
      }),
    );
    expect(c).toMatchObject({
      level: 'breaking',
      kind: 'field-removed',
      location: '/components/schemas/WalletInfo/properties/walletType',
    });
  });

  it('a narrower length, pattern or format is breaking; a wider one is notable', () => {
    const shorter = only(
      changesAfter((d) => {
        S(d).PreAuthRequestBody.properties.orderId.maxLength = 20;
      }),
    );
    expect(shorter).toMatchObject({
      operation: 'preAuthorize',
      level: 'breaking',
      kind: 'constraint-narrowed',
      location: '/components/schemas/PreAuthRequestBody/properties/orderId/maxLength',
    });
    expect(shorter.message).toBe('request body.orderId: maxLength 50 -> 20');
    expect(
      only(
        changesAfter((d) => {
          S(d).PreAuthRequestBody.properties.orderId.maxLength = 64;
        }),
      ),
    ).toMatchObject({ level: 'notable', kind: 'constraint-widened' });
    const pattern = only(
      changesAfter((d) => {
        S(d).PreAuthRequestBody.properties.orderId.pattern = '^[A-Za-z0-9]+$';
      }),
    );
    expect(pattern).toMatchObject({
      level: 'breaking',
      kind: 'pattern-changed',
      location: '/components/schemas/PreAuthRequestBody/properties/orderId/pattern',
    });
    expect(
      only(
        changesAfter((d) => {
          delete S(d).PreAuthRequestBody.properties.orderId.pattern;
        }),
      ),
    ).toMatchObject({ level: 'notable' });
    expect(
      only(
        changesAfter((d) => {
          S(d).PreAuthRequestBody.properties.orderId.format = 'uuid';
        }),
      ),
    ).toMatchObject({ level: 'breaking', kind: 'format-changed' });
  });

  it('an object that stops refusing unlisted fields is notable; one that starts refusing them is breaking', () => {
    const opened = (d: any) => {
      delete S(d).TokenizationConsent.unevaluatedProperties;
    };
    expect(only(changesAfter(opened))).toMatchObject({
      operation: 'tokenizeCard',
      level: 'notable',
      kind: 'opened',
      location: '/components/schemas/TokenizationConsent/unevaluatedProperties',
    });
    expect(only(changesBefore(opened))).toMatchObject({ operation: 'tokenizeCard', level: 'breaking', kind: 'closed' });
  });

  it('a payment variant removed is breaking and named; a variant added is notable', () => {
    const removed = only(
      changesAfter((d) => {
        S(d).PaymentRequestBody.oneOf.pop();
      }),
    );
    expect(removed).toMatchObject({
      level: 'breaking',
      kind: 'variant-removed',
      location: '/components/schemas/PaymentRequestBody/oneOf/8',
    });
    expect(removed.message).toBe('request body: variant "Payments bank (PPBL)" no longer accepted');
    expect(
      only(
        changesBefore((d) => {
          S(d).PaymentRequestBody.oneOf.pop();
        }),
      ),
    ).toMatchObject({ level: 'notable', kind: 'variant-added' });
  });

  it('a rule between fields that requires more is breaking', () => {
    const c = only(
      changesAfter((d) => {
        S(d).PreAuthRequestBody.allOf[0].then.required.push('websiteName');
      }),
    );
    expect(c).toMatchObject({
      operation: 'preAuthorize',
      level: 'breaking',
      kind: 'required-added',
      location: '/components/schemas/PreAuthRequestBody/allOf/0/then/required',
    });
    expect(c.message).toContain('where a rule between fields applies');
  });

  it('query parameters: a narrower schema or a removed parameter is breaking, at the shared parameter', () => {
    // The parameter's schema written inline on both sides, so the one keyword added is the change.
    const inline = edited((d) => {
      d.components.parameters.MidQuery.schema = { type: 'string', minLength: 1 };
    });
    const narrowed = diffContracts(
      inline,
      edited((d) => {
        d.components.parameters.MidQuery.schema = { type: 'string', minLength: 1, maxLength: 10 };
      }),
    );
    expect(narrowed.map((c) => c.operation)).toEqual(['initiatePayment', 'modifyOrder', 'createSubscription']);
    for (const c of narrowed)
      expect(c).toMatchObject({
        level: 'breaking',
        location: '/components/parameters/MidQuery/schema/maxLength',
        message: 'query parameter mid: maxLength none -> 10',
      });
    expect(
      only(
        changesAfter((d) => {
          d.paths[PAY].post.parameters.pop();
        }),
      ),
    ).toMatchObject({ level: 'breaking', kind: 'parameter-removed', location: '/components/parameters/OrderIdQuery' });
  });
});

describe('what the merchant receives: a field or value they rely on disappearing breaks them', () => {
  it('a new optional response field is notable, not breaking', () => {
    const c = only(
      changesAfter((d) => {
        S(d).PaymentResponseBody.properties.settlementDate = { type: 'string' };
      }),
    );
    expect(c).toMatchObject({
      operation: 'initiatePayment',
      direction: 'response',
      level: 'notable',
      kind: 'field-added',
      location: '/components/schemas/PaymentResponseBody/properties/settlementDate',
    });
  });

  it('a response field removed is breaking, even an optional one', () => {
    const c = only(
      changesAfter((d) => {
        delete S(d).PaymentResponseBody.properties.deepLink;
      }),
    );
    expect(c).toMatchObject({ direction: 'response', level: 'breaking', kind: 'field-removed' });
    expect(c.message).toBe('response body.deepLink: field removed: merchants who read it no longer get it');
  });

  it('a new value of a response enum is notable and flagged; a value removed is breaking', () => {
    const added = changesAfter((d) => {
      S(d).TransactionStatus.enum.push('TXN_REVERSED');
    });
    expect(added.map((c) => c.operation)).toEqual(['preAuthorize', 'initiatePayment']);
    for (const c of added) {
      expect(c).toMatchObject({
        direction: 'response',
        level: 'notable',
        kind: 'value-added',
        location: '/components/schemas/TransactionStatus/enum',
      });
      expect(c.message).toContain('merchants who switch on it must handle it');
    }
    const removed = changesAfter((d) => {
      S(d).TransactionStatus.enum = ['TXN_SUCCESS', 'TXN_FAILURE'];
    });
    for (const c of removed) expect(c).toMatchObject({ level: 'breaking', kind: 'value-removed' });
  });

  it('a response field no longer always present is breaking; newly always present is notable', () => {
    expect(
      only(
        changesAfter((d) => {
          S(d).PaymentResponseBody.required = [];
        }),
      ),
    ).toMatchObject({ level: 'breaking', kind: 'required-removed', field: 'body.resultInfo' });
    expect(
      only(
        changesBefore((d) => {
          S(d).PaymentResponseBody.required = [];
        }),
      ),
    ).toMatchObject({ level: 'notable', kind: 'required-added' });
  });

  it('a response type that may now be another type is breaking', () => {
    const changes = changesAfter((d) => {
      S(d).TransactionStatus.type = ['string', 'null'];
    });
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes)
      expect(c).toMatchObject({
        level: 'breaking',
        location: expect.stringMatching(/^\/components\/schemas\/TransactionStatus\/type/),
      });
  });

  it("webhooks read in the merchant's direction: the notification like a response, the reply like a request", () => {
    const status = only(
      changesAfter((d) => {
        S(d).TokenStatus.enum.push('PROVISIONING');
      }),
    );
    expect(status).toMatchObject({
      operation: 'notifyTokenStatus',
      direction: 'request',
      level: 'notable',
      kind: 'value-added',
    });
    expect(status.message).toMatch(/^notification body\.tokenInfo\.tokenStatus: new value "PROVISIONING"/);
    expect(
      only(
        changesAfter((d) => {
          S(d).TokenStatus.enum.shift();
        }),
      ),
    ).toMatchObject({ operation: 'notifyTokenStatus', level: 'breaking', kind: 'value-removed' });
    // One head schema, two directions: the tokenize request accepts a new optional field; the
    // notification's head is closed, so a merchant validating it with the released contract refuses it.
    const head = changesAfter((d) => {
      S(d).TokenServiceRequestHead.properties.traceId = { type: 'string' };
    });
    expect(head.map((c) => [c.operation, c.level])).toEqual([
      ['tokenizeCard', 'notable'],
      ['notifyTokenStatus', 'breaking'],
    ]);
    // The reply is what the merchant sends: a tighter reply field breaks them.
    const reply = changesAfter((d) => {
      S(d).ResultInfo.properties.resultMsg.maxLength = 64;
    }).find((c) => c.operation === 'notifyTokenStatus');
    expect(reply).toMatchObject({ direction: 'response', level: 'breaking', kind: 'constraint-narrowed' });
    expect(reply!.message).toMatch(/^reply body\.resultInfo\.resultMsg: /);
  });
});

/** The oneOf holding an operation's result codes, in a copy of the contract. */
function codeUnion(doc: any, operationId: string): any[] {
  const codes = resultCatalogOf(base)[operationId].codes.map((c: any) => c.code);
  const field = resultCatalogOf(base)[operationId].fields.code;
  const owner = Object.values<any>(S(doc)).find(
    (s) =>
      Array.isArray(s.oneOf) &&
      s.oneOf.length === codes.length &&
      s.oneOf.every((b: any, i: number) => b.properties?.[field]?.const === codes[i]),
  );
  if (!owner) throw new Error(`no code table for ${operationId}`);
  return owner.oneOf;
}

describe('result codes of section 7 are part of the contract', () => {
  const operations = Object.keys(resultCatalogOf(base));
  it('covers every operation and the webhook', () => {
    expect(operations).toHaveLength(7);
  });

  for (const operationId of operations) {
    it(`${operationId}: a code removed is one breaking change at its branch; a code added is notable`, () => {
      const removedCode = resultCatalogOf(base)[operationId].codes[1];
      const removed = only(
        changesAfter((d) => {
          codeUnion(d, operationId).splice(1, 1);
        }),
      );
      expect(removed).toMatchObject({
        operation: operationId,
        direction: 'response',
        level: 'breaking',
        kind: 'result-code-removed',
      });
      expect(removed.message).toContain(`result code ${removedCode.code} (${removedCode.status}`);
      const branch = resolve(base, `#${removed.location}`);
      expect(branch.properties[resultCatalogOf(base)[operationId].fields.code].const).toBe(removedCode.code);

      const added = only(
        changesBefore((d) => {
          codeUnion(d, operationId).splice(1, 1);
        }),
      );
      expect(added).toMatchObject({ operation: operationId, level: 'notable', kind: 'result-code-added' });
    });
  }

  it('a changed status is breaking; a changed message is breaking; a new message is notable; a new meaning is documentation', () => {
    expect(
      only(
        changesAfter((d) => {
          codeUnion(d, 'initiatePayment')[1].properties.resultStatus.const = 'S';
        }),
      ),
    ).toMatchObject({
      level: 'breaking',
      kind: 'result-code-status-changed',
      message: 'response body.resultInfo: result code 501: status "F" -> "S"',
      location: '/components/schemas/PaymentResultInfo/oneOf/1/properties/resultStatus/const',
    });
    expect(
      only(
        changesAfter((d) => {
          codeUnion(d, 'initiatePayment')[1].properties.resultMsg.examples = ['Internal error'];
        }),
      ),
    ).toMatchObject({
      level: 'breaking',
      kind: 'result-code-message-changed',
      message: 'response body.resultInfo: result code 501: message "System Error" -> "Internal error"',
    });
    expect(
      only(
        changesAfter((d) => {
          codeUnion(d, 'createSubscription')
            .find((b: any) => b.properties.resultCode.const === '4001')
            .properties.resultMsg.examples.push('Invalid plan');
        }),
      ),
    ).toMatchObject({ operation: 'createSubscription', level: 'notable', kind: 'result-code-message-added' });
    expect(
      only(
        changesAfter((d) => {
          codeUnion(d, 'preAuthorize')[0].description = 'Blocked.';
        }),
      ),
    ).toMatchObject({ operation: 'preAuthorize', level: 'patch', kind: 'annotation' });
  });

  it('a new code in the table is flagged for merchants who switch on codes', () => {
    const c = only(
      changesAfter((d) => {
        codeUnion(d, 'modifyOrder').push({
          title: '1112 Order locked',
          description: 'The order is locked.',
          type: 'object',
          required: ['resultCode', 'resultStatus'],
          properties: {
            resultCode: { const: '1112' },
            resultStatus: { const: 'F' },
            resultMsg: { type: 'string', examples: ['Order locked'] },
          },
        });
      }),
    );
    expect(c).toMatchObject({
      operation: 'modifyOrder',
      level: 'notable',
      kind: 'result-code-added',
      location: '/components/schemas/ModifyOrderResultInfo/oneOf/13',
    });
    expect(c.message).toBe(
      'response body.resultInfo: new result code 1112 (F, "Order locked"): merchants who switch on codes must handle it',
    );
  });
});

describe('next steps and idempotence (openapi/DECISIONS.md D-52, docs/decisions.md D-54)', () => {
  it("a code's next step changed is notable; the basis of it, documentation", () => {
    const changed = only(
      changesAfter((d) => {
        codeUnion(d, 'initiatePayment')[17]['x-next-step'] = { action: 'query-status', decision: 'D-52' };
      }),
    );
    expect(changed).toMatchObject({
      operation: 'initiatePayment',
      direction: 'response',
      level: 'notable',
      kind: 'next-step-changed',
      location: '/components/schemas/PaymentResultInfo/oneOf/17/x-next-step',
    });
    expect(changed.message).toBe(
      'response body.resultInfo: result code 201: next step "already-paid" -> "query-status": merchants who act on next steps must handle it',
    );
    expect(
      only(
        changesAfter((d) => {
          codeUnion(d, 'initiatePayment')[17]['x-next-step'] = { action: 'already-paid', decision: 'D-52' };
        }),
      ),
    ).toMatchObject({
      level: 'patch',
      kind: 'extension',
      location: '/components/schemas/PaymentResultInfo/oneOf/17/x-next-step',
    });
  });

  it('the list of actions: added or grown is notable, an action removed is breaking, its words documentation', () => {
    const stripped = (d: any) => {
      delete d['x-next-step-actions'];
      for (const operationId of Object.keys(resultCatalogOf(base)))
        for (const branch of codeUnion(d, operationId)) delete branch['x-next-step'];
    };
    expect(only(changesBefore(stripped))).toMatchObject({
      direction: 'contract',
      level: 'notable',
      kind: 'next-steps-added',
      location: '/x-next-step-actions',
    });
    expect(only(changesAfter(stripped))).toMatchObject({ level: 'breaking', kind: 'next-steps-removed' });
    expect(
      only(
        changesAfter((d) => {
          d['x-next-step-actions']['try-tomorrow'] = 'Try again tomorrow.';
        }),
      ),
    ).toMatchObject({
      level: 'notable',
      kind: 'next-step-action-added',
      location: '/x-next-step-actions/try-tomorrow',
    });
    expect(
      only(
        changesBefore((d) => {
          d['x-next-step-actions']['try-tomorrow'] = 'Try again tomorrow.';
        }),
      ),
    ).toMatchObject({ level: 'breaking', kind: 'next-step-action-removed' });
    expect(
      only(
        changesAfter((d) => {
          d['x-next-step-actions'].wait = 'Wait.';
        }),
      ),
    ).toMatchObject({ level: 'patch', kind: 'annotation', location: '/x-next-step-actions/wait' });
  });

  it('an operation that stops or starts being idempotent is notable', () => {
    const c = only(
      changesAfter((d) => {
        d.paths['/subscription/list/all'].post['x-idempotent'] = false;
      }),
    );
    expect(c).toMatchObject({ operation: 'listSubscriptions', level: 'notable', kind: 'idempotence-changed' });
    expect(c.message).toContain('x-idempotent true -> false');
  });
});

describe('named checks are part of the contract', () => {
  it('a named check added to an operation is breaking; removed, notable', () => {
    const added = only(
      changesAfter((d) => {
        d.paths[PAY].post['x-named-checks'].push('amountWithinLimit');
      }),
    );
    expect(added).toMatchObject({
      operation: 'initiatePayment',
      level: 'breaking',
      kind: 'named-check-added',
      location: '/paths/~1aoa-acquiring-biz~1v2~1payment/post/x-named-checks',
    });
    expect(added.message).toContain('amountWithinLimit');
    expect(
      only(
        changesAfter((d) => {
          d.paths[PAY].post['x-named-checks'].pop();
        }),
      ),
    ).toMatchObject({ level: 'notable', kind: 'named-check-removed' });
  });

  it('on the webhook, a check holds the service to more: notable; removed, breaking', () => {
    expect(
      only(
        changesAfter((d) => {
          d.webhooks.tokenStatusNotification.post['x-named-checks'].push('tokenMatchesCard');
        }),
      ),
    ).toMatchObject({ operation: 'notifyTokenStatus', level: 'notable' });
  });
});

describe('fields that become an enum, empty patterns', () => {
  it('a request field, a request body or a request parameter that becomes an enum is breaking, as one change; in a response it is compatible', () => {
    const field = only(
      changesAfter((d) => {
        S(d).PaymentRequestBody.properties.txnNote.enum = ['A', 'B'];
      }),
    );
    expect(field).toMatchObject({
      operation: 'initiatePayment',
      direction: 'request',
      level: 'breaking',
      kind: 'became-enum',
      location: '/components/schemas/PaymentRequestBody/properties/txnNote/enum',
      message: 'request body.txnNote: now limited to ["A","B"]',
    });
    // The way back: any string again.
    expect(
      only(
        changesBefore((d) => {
          S(d).PaymentRequestBody.properties.txnNote.enum = ['A', 'B'];
        }),
      ),
    ).toMatchObject({ level: 'notable', kind: 'enum-removed' });
    expect(
      only(
        changesAfter((d) => {
          S(d).PreAuthorizeRequest.enum = [{ head: {}, body: {} }];
        }),
      ),
    ).toMatchObject({
      operation: 'preAuthorize',
      direction: 'request',
      level: 'breaking',
      kind: 'became-enum',
      location: '/components/schemas/PreAuthorizeRequest/enum',
    });
    // A parameter of three operations, its schema written in place.
    const inline = (values?: string[]) => (d: any) => {
      d.components.parameters.OrderIdQuery.schema = { type: 'string', ...(values ? { enum: values } : {}) };
    };
    const parameter = diffContracts(edited(inline()), edited(inline(['O1', 'O2'])));
    expect(parameter.map((c) => [c.operation, c.level, c.kind, c.message])).toEqual(
      ['initiatePayment', 'modifyOrder', 'createSubscription'].map((op) => [
        op,
        'breaking',
        'became-enum',
        'query parameter orderId: now limited to ["O1","O2"]',
      ]),
    );
    const answer = only(
      changesAfter((d) => {
        S(d).PreAuthResponseBody.properties.preAuthId.enum = ['P1', 'P2'];
      }),
    );
    expect(answer).toMatchObject({
      direction: 'response',
      level: 'notable',
      kind: 'became-enum',
      message: 'response body.preAuthId: now one of ["P1","P2"]',
    });
    // An answer's field no longer limited: a validator of the released contract refuses what it may now hold.
    expect(
      only(
        changesBefore((d) => {
          S(d).PreAuthResponseBody.properties.preAuthId.enum = ['P1', 'P2'];
        }),
      ),
    ).toMatchObject({ direction: 'response', level: 'breaking', kind: 'enum-removed' });
  });

  it('an empty pattern accepts every string: put in place of one it removes the constraint; added, it changes nothing', () => {
    const replaced = only(
      changesAfter((d) => {
        S(d).PreAuthRequestBody.properties.orderId.pattern = '';
      }),
    );
    expect(replaced).toMatchObject({
      level: 'notable',
      kind: 'pattern-changed',
      message: 'request body.orderId: pattern "^[A-Za-z0-9@._-]+$" removed (an empty pattern accepts every string)',
    });
    expect(
      only(
        changesBefore((d) => {
          S(d).PreAuthRequestBody.properties.orderId.pattern = '';
        }),
      ),
    ).toMatchObject({ level: 'breaking', kind: 'pattern-changed' });
    expect(
      only(
        changesAfter((d) => {
          S(d).PaymentRequestBody.properties.txnNote.pattern = '';
        }),
      ),
    ).toMatchObject({
      level: 'patch',
      kind: 'pattern-changed',
      message: 'request body.txnNote: pattern "" added: it accepts every string',
    });
    expect(
      only(
        changesAfter((d) => {
          S(d).PreAuthResponseBody.properties.orderId.pattern = '';
        }),
      ),
    ).toMatchObject({ direction: 'response', level: 'patch', kind: 'pattern-changed' });
    // An answer's pattern removed: it may now hold what a validator of the released contract refuses.
    expect(
      only(
        changesAfter((d) => {
          S(d).PreAuthResponseBody.properties.preAuthId.pattern = '';
        }),
      ),
    ).toMatchObject({ direction: 'response', level: 'breaking', kind: 'pattern-changed' });
  });
});

describe('documents of another shape', () => {
  it('a result-code table removed or an answer reshaped is said in one line, and the rest compared', () => {
    const flat = edited((d) => {
      S(d).ModifyOrderResultInfo = {
        type: 'object',
        required: ['resultCode', 'resultStatus'],
        properties: { resultCode: { type: 'string' }, resultStatus: { type: 'string' }, resultMsg: { type: 'string' } },
      };
    });
    const noTable = diffContracts(base, flat);
    const said = noTable.filter((c) => c.kind === 'result-codes-not-compared');
    expect(said).toEqual([
      expect.objectContaining({
        operation: 'modifyOrder',
        direction: 'response',
        level: 'breaking',
        message:
          'response: no result-code table found in the new contract (a oneOf whose branches pin resultCode or statusCode): its codes are not compared',
      }),
    ]);
    expect(noTable.length).toBeGreaterThan(1);
    const text = edited((d) => {
      d.paths['/aoa-acquiring-biz/v2/modifyOrder'].post.responses['200'].content = {
        'text/plain': { schema: { type: 'string' } },
      };
    });
    for (const [before, after] of [
      [base, text],
      [text, base],
    ]) {
      const changes = diffContracts(before, after);
      expect(
        changes.filter((c) => c.kind === 'result-codes-not-compared' && c.operation === 'modifyOrder'),
      ).toHaveLength(1);
      expect(changes.some((c) => c.level === 'breaking')).toBe(true);
    }
  });

  it('a document not shaped like this contract is compared as far as it can be, without throwing', () => {
    const other = {
      openapi: '3.1.0',
      info: { title: 'Other', version: '1.0.0' },
      paths: { '/ping': { get: { responses: { 200: { description: 'pong' } } } } },
    };
    for (const [before, after] of [
      [base, other],
      [other, base],
      [other, structuredClone(other)],
      [{}, other],
    ]) {
      const changes = diffContracts(before, after);
      for (const c of changes) expect(c.message.split('\n')).toHaveLength(1);
    }
    expect(diffContracts(other, structuredClone(other))).toEqual([]);
  });
});

describe('one fixture pair per class of change (test/fixtures/gate)', () => {
  // Each folder, named after the class of change it shows (`became-enum.request-parameter`), holds
  // two small JSON Patch lists (RFC 6902, in YAML) applied to the contract as it is: before.yaml
  // makes the released side, after.yaml the edited one; expected.yaml says the class and its level.
  const GATE = new URL('../fixtures/gate/', import.meta.url);
  const fixtures = readdirSync(GATE).sort();

  it('classifies each pair as its class, at its level, and nothing in it more severe', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(80);
    const wrong: string[] = [];
    for (const name of fixtures) {
      const read = (file: string) => parseYaml(readFileSync(new URL(`${name}/${file}`, GATE), 'utf8'));
      const expected = read('expected.yaml') as { kind: string; level: Change['level'] };
      expect(name === expected.kind || name.startsWith(`${expected.kind}.`), `${name} is named after its class`).toBe(
        true,
      );
      const changes = diffContracts(patched(base, read('before.yaml')), patched(base, read('after.yaml')));
      const top = LEVELS.find((level) => changes.some((c) => c.level === level));
      if (top !== expected.level || !changes.some((c) => c.kind === expected.kind && c.level === expected.level))
        wrong.push(
          `${name}: expected ${expected.kind} (${expected.level}), got ${changes.map((c) => `${c.kind} (${c.level})`).join(', ') || 'no change'}`,
        );
    }
    expect(wrong).toEqual([]);
    // A hundred comparisons of the whole contract: longer than a test's default time on a busy machine.
  }, 180_000);
});

describe('documentation, operations, components and what the check must not invent', () => {
  it('an unchanged contract has no change, and the inputs are not modified', () => {
    const copy = structuredClone(base);
    expect(diffContracts(base, copy)).toEqual([]);
    expect(copy).toEqual(base);
  });

  it('descriptions, examples and vendor extensions are documentation (patch)', () => {
    expect(
      only(
        changesAfter((d) => {
          S(d).WalletInfo.description = 'The wallet.';
        }),
      ),
    ).toMatchObject({ level: 'patch', kind: 'annotation', location: '/components/schemas/WalletInfo/description' });
    expect(
      only(
        changesAfter((d) => {
          d.components.examples.PayWithUpi.value.body.orderId = 'ORDER-2002';
        }),
      ),
    ).toMatchObject({ operation: 'initiatePayment', level: 'patch', kind: 'example' });
    expect(
      only(
        changesAfter((d) => {
          d.paths[PAY].post['x-authentication'].description = 'The order token.';
        }),
      ),
    ).toMatchObject({ level: 'patch', kind: 'extension' });
  });

  it('a small change inside one variant is one change, not a re-pairing of every variant', () => {
    // The library's own pairing of oneOf branches reported dozens of false "breaking" value changes here.
    const c = only(
      changesAfter((d) => {
        S(d).Mpin['x-sensitive'] = false;
      }),
    );
    expect(c).toMatchObject({
      operation: 'initiatePayment',
      level: 'patch',
      kind: 'extension',
      location: '/components/schemas/Mpin/x-sensitive',
    });
  });

  it('an operation removed is breaking; an operationId renamed is breaking; a new operation is notable', () => {
    expect(
      only(
        changesAfter((d) => {
          delete d.paths[PAY];
        }),
      ),
    ).toMatchObject({
      operation: 'initiatePayment',
      direction: 'operation',
      level: 'breaking',
      kind: 'operation-removed',
    });
    expect(
      only(
        changesAfter((d) => {
          d.paths[PAY].post.operationId = 'pay';
        }),
      ),
    ).toMatchObject({ level: 'breaking', kind: 'operation-renamed' });
    const added = changesAfter((d) => {
      d.paths['/aoa-acquiring-biz/v2/refund'] = structuredClone(d.paths[PAY]);
      d.paths['/aoa-acquiring-biz/v2/refund'].post.operationId = 'refundPayment';
    });
    expect(added.find((c) => c.operation === 'refundPayment')).toMatchObject({
      level: 'notable',
      kind: 'operation-added',
    });
    expect(added.filter((c) => c.level === 'breaking')).toEqual([]);
  });

  it('a component schema renamed breaks code that names its generated type, and changes nothing else', () => {
    const changes = changesAfter((d) => {
      S(d).Currency = S(d).Money;
      delete S(d).Money;
      const text = JSON.stringify(d).replaceAll('"#/components/schemas/Money"', '"#/components/schemas/Currency"');
      Object.assign(d, JSON.parse(text));
    });
    expect(changes.map((c) => [c.kind, c.level, c.location])).toEqual([
      ['component-removed', 'breaking', '/components/schemas/Money'],
      ['component-added', 'patch', '/components/schemas/Currency'],
    ]);
  });

  it('a component schema renamed with its old name kept as a deprecated alias is notable, and the hint says how', () => {
    const rename = (alias: boolean) => (d: any) => {
      S(d).Currency = S(d).Money;
      const text = JSON.stringify(d).replaceAll('"#/components/schemas/Money"', '"#/components/schemas/Currency"');
      Object.assign(d, JSON.parse(text));
      if (alias)
        S(d).Money = {
          $ref: '#/components/schemas/Currency',
          deprecated: true,
          description: 'The old name of Currency.',
        };
      else delete S(d).Money;
    };
    const kept = changesAfter(rename(true));
    expect(kept.map((c) => [c.kind, c.level, c.location])).toEqual([
      ['component-renamed', 'notable', '/components/schemas/Currency'],
    ]);
    expect(kept[0].message).toBe(
      'component schema Money renamed Currency; Money stays, deprecated, as an alias of it: code that names either generated type compiles',
    );
    const dropped = changesAfter(rename(false));
    expect(dropped.map((c) => [c.kind, c.level])).toEqual([
      ['component-removed', 'breaking'],
      ['component-added', 'patch'],
    ]);
    expect(dropped[0].message).toContain(
      '(renamed Currency? keep Money as a deprecated alias of it until the next major version)',
    );
    // The old name made an alias of a schema other than the one it named: its type changes.
    const other = changesAfter((d) => {
      S(d).Money = { $ref: '#/components/schemas/WalletInfo', deprecated: true };
    });
    expect(other.find((c) => c.kind === 'component-changed')).toMatchObject({
      level: 'breaking',
      location: '/components/schemas/Money',
    });
  });

  it("the contract's own envelopes renamed to <OperationId>Request and <OperationId>Response keep their old names as aliases: notable", () => {
    // The released contract had PaymentRequest where the contract now has InitiatePaymentRequest, and so on.
    const renames = {
      PaymentRequest: 'InitiatePaymentRequest',
      PaymentResponse: 'InitiatePaymentResponse',
      PreAuthRequest: 'PreAuthorizeRequest',
      PreAuthResponse: 'PreAuthorizeResponse',
    };
    const released = edited((d) => {
      let text = JSON.stringify(d);
      for (const [old, now] of Object.entries(renames)) {
        S(d)[old] = S(d)[now];
        delete S(d)[now];
        text = JSON.stringify(d).replaceAll(`"#/components/schemas/${now}"`, `"#/components/schemas/${old}"`);
        Object.assign(d, JSON.parse(text));
      }
    });
    const changes = diffContracts(released, base);
    expect(changes.map((c) => [c.kind, c.level, c.location])).toEqual(
      Object.values(renames).map((now) => ['component-renamed', 'notable', `/components/schemas/${now}`]),
    );
    for (const [old, now] of Object.entries(renames)) {
      expect(S(base)[old]).toMatchObject({ $ref: `#/components/schemas/${now}`, deprecated: true });
      expect(S(base)[old].description).toContain('next major version');
    }
    const withoutAliases = edited((d) => {
      for (const old of Object.keys(renames)) delete S(d)[old];
    });
    expect(
      diffContracts(released, withoutAliases)
        .filter((c) => c.level === 'breaking')
        .map((c) => c.location),
    ).toEqual(Object.keys(renames).map((old) => `/components/schemas/${old}`));
  });

  it('info.version alone is not a change of the contract', () => {
    expect(
      changesAfter((d) => {
        d.info.version = '1.0.1';
      }),
    ).toEqual([]);
  });
});

describe('versions: semantic versioning against the released contract', () => {
  const breaking = edited((d) => {
    S(d).WalletInfo.properties.paymentFlow.enum = ['PAY'];
  });
  const compatible = edited((d) => {
    S(d).WalletInfo.properties.walletNote = { type: 'string' };
    S(d).PaymentResponseBody.properties.settlementDate = { type: 'string' };
  });
  const documented = edited((d) => {
    S(d).WalletInfo.description = 'The wallet.';
  });
  const at = (doc: any, version: string) => ({ ...doc, info: { ...doc.info, version } });
  // The released side is the contract as it is, at version 1.0.0.
  const check = (working: any, version: string, packageVersion = version) =>
    checkContract({
      released: at(base, '1.0.0'),
      working: at(working, version),
      packageVersion,
      changelog: '## 1.0.0 (2026-01-01)\n',
    });
  const verdict = (required: 'major' | 'minor' | 'patch' | 'none', version: string) =>
    judgeVersions({ released: '1.0.0', working: version, packageVersion: version, required });

  it('the bump between two versions', () => {
    expect(bumpBetween('1.0.0', '1.0.0')).toBe('none');
    expect(bumpBetween('1.0.0', '2.0.0')).toBe('major');
    expect(bumpBetween('1.2.3', '1.3.0')).toBe('minor');
    expect(bumpBetween('1.2.3', '1.2.4')).toBe('patch');
    for (const skipped of ['3.0.0', '1.3.1', '1.2.2', '0.9.0', '2.0.1'])
      expect(bumpBetween('1.2.3', skipped), skipped).toBeNull();
  });

  it('no change, no bump', () => {
    expect(check(base, '1.0.0').ok).toBe(true);
    const bumped = check(base, '1.0.1');
    expect(bumped.ok).toBe(false);
    expect(bumped.problems.join('\n')).toContain('no change, no bump');
  });

  it('a breaking change needs a major version', () => {
    const minor = check(breaking, '1.1.0');
    expect(minor.required).toBe('major');
    expect(minor.ok).toBe(false);
    expect(minor.problems.join('\n')).toContain('a breaking change needs a major version: use 2.0.0');
    expect(check(breaking, '2.0.0').ok).toBe(true);
    for (const version of ['1.0.0', '1.0.1', '1.1.0', '3.0.0'])
      expect(verdict('major', version).ok, version).toBe(false);
    expect(verdict('major', '1.0.0').problems.join('\n')).toContain('bump it to 2.0.0');
  });

  it('a compatible change is not breaking: it needs a minor version (or a major one)', () => {
    const result = check(compatible, '1.0.0');
    expect(result.changes.map((c) => [c.operation, c.direction, c.level])).toEqual([
      ['initiatePayment', 'request', 'notable'],
      ['initiatePayment', 'response', 'notable'],
    ]);
    expect(result.required).toBe('minor');
    expect(result.ok).toBe(false);
    expect(check(compatible, '1.1.0').ok).toBe(true);
    expect(verdict('minor', '1.0.1').ok).toBe(false);
    expect(verdict('minor', '2.0.0').ok).toBe(true);
  });

  it('documentation needs a patch version', () => {
    const result = check(documented, '1.0.1');
    expect(result.required).toBe('patch');
    expect(result.ok).toBe(true);
    expect(verdict('patch', '1.0.0').ok).toBe(false);
    expect(verdict('patch', '1.1.0').ok).toBe(true);
  });

  it('info.version must be a version, and so must the package version', () => {
    expect(
      judgeVersions({ released: '1.0.0', working: 'v1.1', packageVersion: 'v1.1', required: 'minor' }).problems.join(
        '\n',
      ),
    ).toContain('is not a version MAJOR.MINOR.PATCH');
    expect(
      judgeVersions({ released: '1.0.0', working: '1.1.0', packageVersion: 'latest', required: 'minor' }).problems,
    ).toEqual(['package.json has version "latest", not a version MAJOR.MINOR.PATCH']);
  });

  // D-70: the package's version is at least the contract's, follows the package's previous
  // release, and is bumped at least as much as the contract at each release of the contract.
  // (Failed before: the two had to be equal.)
  it("the package's version: at least the contract's, bumped at least as much as the contract it carries", () => {
    const judge = (
      working: string,
      packageVersion: string,
      previousPackage: string,
      required: 'major' | 'minor' | 'patch' | 'none',
    ) => judgeVersions({ released: '1.1.0', working, packageVersion, previousPackage, required }).problems;
    // A release of the package alone: a new major version, the contract as released.
    expect(judge('1.1.0', '2.0.0', '1.1.0', 'none')).toEqual([]);
    // That package carrying a patch or minor release of the contract (each bumps the package at least as much).
    expect(judge('1.1.1', '2.0.0', '1.1.0', 'patch')).toEqual([]);
    expect(judge('1.2.0', '2.0.0', '1.1.0', 'minor')).toEqual([]);
    expect(judge('1.1.1', '2.0.1', '2.0.0', 'patch')).toEqual([]);
    expect(judge('1.2.0', '2.1.0', '2.0.0', 'minor')).toEqual([]);
    // Equal versions, as before, still pass.
    expect(judge('1.2.0', '1.2.0', '1.1.0', 'minor')).toEqual([]);
    // Bumped less than the contract.
    expect(judge('1.2.0', '2.0.1', '2.0.0', 'minor').join('\n')).toContain(
      "the contract takes a minor bump but package.json's 2.0.1 is a patch bump since the package's release 2.0.0: the package is bumped at least as much as the contract it carries; use 2.1.0 or higher",
    );
    expect(judge('1.1.1', '2.0.0', '2.0.0', 'patch').join('\n')).toContain(
      "package.json's 2.0.0 is not bumped since the package's release 2.0.0",
    );
    expect(judge('2.0.0', '2.0.0', '2.0.0', 'major').join('\n')).toContain('use 3.0.0');
    // Lower than the contract's version, or not following the package's previous release.
    expect(judge('1.2.0', '1.1.0', '1.1.0', 'minor').join('\n')).toContain(
      "package.json has version 1.1.0, lower than the contract's 1.2.0 (openapi/openapi.yaml): the package's version is at least the contract's",
    );
    expect(judge('1.1.0', '3.0.0', '1.1.0', 'none').join('\n')).toContain(
      "package.json has version 3.0.0, which does not follow the package's release 1.1.0: use 2.0.0 (major), 1.2.0 (minor) or 1.1.1 (patch)",
    );
    expect(compareVersions('2.0.0', '1.10.0')).toBeGreaterThan(0);
    expect(compareVersions('1.2.10', '1.10.2')).toBeLessThan(0);
  });

  it("the package's previous release is the newest CHANGELOG section of another version; a dated section is released", () => {
    const changelog = [
      '# Changelog',
      '',
      '## 2.0.0 (unreleased), contract 1.0.0',
      '',
      '### Breaking',
      '',
      '- `generateSignature` returns a promise.',
      '',
      '## 1.0.0 (2026-01-01)',
      '',
      'Initial release.',
      '',
    ].join('\n');
    expect(releasesOf(changelog)).toEqual([
      { package: '2.0.0', contract: '1.0.0', date: null },
      { package: '1.0.0', contract: '1.0.0', date: '2026-01-01' },
    ]);
    // A heading that names no version is no release.
    expect(releasesOf(`## Unreleased\n\n${changelog}`)).toEqual(releasesOf(changelog));
    const released = at(base, '1.0.0');
    // The package alone: 2.0.0 after 1.0.0, the contract unchanged.
    expect(checkContract({ released, working: released, packageVersion: '2.0.0', changelog }).problems).toEqual([]);
    // The unreleased 2.0.0 carries a patch release of the contract: accepted (the integrator's release).
    expect(
      checkContract({ released, working: at(documented, '1.0.1'), packageVersion: '2.0.0', changelog }).problems,
    ).toEqual([]);
    // Once 2.0.0 is released (dated) with contract 1.0.0, a contract release needs a new package version.
    const dated = changelog.replace('2.0.0 (unreleased)', '2.0.0 (2026-02-01)');
    expect(
      checkContract({ released, working: at(documented, '1.0.1'), packageVersion: '2.0.0', changelog: dated }).problems,
    ).toEqual([
      'package 2.0.0 was released (2026-02-01) with contract 1.0.0: contract 1.0.1 needs a new package version (package.json)',
    ]);
    expect(
      checkContract({ released, working: at(documented, '1.0.1'), packageVersion: '2.0.1', changelog: dated }).problems,
    ).toEqual([]);
  });

  it('the released version needs its CHANGELOG section; no baseline is a failure', () => {
    const noSection = checkContract({
      released: base,
      working: base,
      packageVersion: base.info.version,
      changelog: '# Changelog\n',
    });
    expect(noSection.problems).toEqual([`CHANGELOG.md has no section for the released contract ${base.info.version}`]);
    expect(checkContract({ released: null, working: base, packageVersion: base.info.version }).ok).toBe(false);
  });
});

describe('the report a reviewer reads', () => {
  it('lists each change under its operation with its level and place, the bump needed, and why it fails', () => {
    const working = edited((d) => {
      S(d).WalletInfo.properties.paymentFlow.enum = ['PAY'];
      S(d).WalletInfo.required.push('walletType');
      codeUnion(d, 'initiatePayment').splice(1, 1);
      S(d).PaymentResponseBody.properties.settlementDate = { type: 'string' };
      d.info.version = '1.1.0';
    });
    const result = checkContract({
      released: { ...base, info: { ...base.info, version: '1.0.0' } },
      working,
      packageVersion: '1.1.0',
    });
    const report = renderReport(result);
    expect(report).toContain(
      [
        'initiatePayment',
        '  BREAKING  request body.walletInfo.paymentFlow: value "ADDNAPAY" no longer accepted',
        '            at #/components/schemas/WalletInfo/properties/paymentFlow/enum',
        '  BREAKING  request body.walletInfo.walletType: now required',
        '            at #/components/schemas/WalletInfo/required',
      ].join('\n'),
    );
    expect(report).toContain(
      '  BREAKING  response body.resultInfo: result code 501 (F, "System Error") removed\n            at #/components/schemas/PaymentResultInfo/oneOf/1',
    );
    expect(report).toContain('  notable   response body.settlementDate: new field');
    expect(report).toContain('4 changes: 3 breaking, 1 notable. They need a major version: 2.0.0.');
    expect(report).toContain(
      'check:breaking: FAILED\n  - info.version 1.1.0 is a minor bump, but a breaking change needs a major version: use 2.0.0',
    );
    expect(report.split('\n').every((line) => line.length <= 320)).toBe(true);
  });

  it('stays bounded on a large diff', () => {
    const working = edited((d) => {
      for (const schema of Object.values<any>(S(d)))
        if (typeof schema.description === 'string') schema.description += ' Revised.';
    });
    const result = checkContract({ released: base, working, packageVersion: base.info.version });
    expect(result.changes.length).toBeGreaterThan(50);
    const report = renderReport(result, { maxChanges: 20 });
    expect(report).toContain(`... and ${result.changes.length - 20} more changes`);
    expect(report.split('\n').length).toBeLessThan(60);
  });

  it('says that an unchanged contract passes', () => {
    const report = renderReport(
      checkContract({
        released: base,
        working: base,
        packageVersion: base.info.version,
        changelog: `## ${base.info.version} (2026-01-01)\n`,
      }),
    );
    expect(report).toContain(`No change since ${base.info.version}.`);
    expect(report.trimEnd().endsWith(`check:breaking: passed (version ${base.info.version})`)).toBe(true);
  });
});

describe('CHANGELOG.md and the docs page', () => {
  it("a contract's block lists the changes by operation, in a new section before the newest one", () => {
    const working = edited((d) => {
      S(d).WalletInfo.properties.paymentFlow.enum = ['PAY'];
      S(d).TokenStatus.enum.push('PROVISIONING');
      d.info.version = '2.0.0';
    });
    const changes = diffContracts(base, working);
    const block = contractBlock({ version: '2.0.0', released: '1.0.0', changes, doc: working });
    expect(block).toBe(
      [
        '### Contract 2.0.0',
        '',
        'Changes since 1.0.0: 1 breaking, 1 notable.',
        '',
        '#### `initiatePayment`',
        '',
        '- **Breaking**: request body.walletInfo.paymentFlow: value "ADDNAPAY" no longer accepted (`/components/schemas/WalletInfo/properties/paymentFlow/enum`)',
        '',
        '#### `notifyTokenStatus` (webhook)',
        '',
        '- Notable: notification body.tokenInfo.tokenStatus: new value "PROVISIONING": merchants who switch on it must handle it (`/components/schemas/TokenStatus/enum`)',
        '',
      ].join('\n'),
    );
    const file = withRelease(
      `${CHANGELOG_INTRO}\n## 1.0.0 (2026-01-01)\n\nInitial release.\n`,
      { package: '2.0.0', contract: '2.0.0', date: '2026-02-01' },
      block,
    );
    expect(versionsOf(file)).toEqual(['2.0.0', '1.0.0']);
    expect(file).toContain('\n## 2.0.0 (2026-02-01)\n\n### Contract 2.0.0\n');
    expect(sectionOf(file, '1.0.0')).toEqual({ date: '2026-01-01', contract: '1.0.0', body: 'Initial release.' });
    // Written again, the block replaces itself.
    const again = withRelease(
      file,
      { package: '2.0.0', contract: '2.0.0', date: '2026-02-01' },
      block.replace('1 notable', '1 notable (edited)'),
    );
    expect(versionsOf(again)).toEqual(['2.0.0', '1.0.0']);
    expect(sectionOf(again, '2.0.0')!.body).toContain('(edited)');
    expect(sectionOf(again, '2.0.0')!.body.match(/### Contract/g)).toHaveLength(1);
    expect(
      contractChangesOf(again, '2.0.0')!.body.startsWith('Changes since 1.0.0: 1 breaking, 1 notable (edited).'),
    ).toBe(true);
  });

  // Failed before: a release replaced the whole section of its version, and the package's own
  // (hand-written) changes with it.
  it("a contract's block goes into the package version's section, keeping what was written by hand", () => {
    const handWritten = [
      '## 3.0.0 (unreleased), contract 2.0.0',
      '',
      'The package changes what a program imports.',
      '',
      '### Breaking',
      '',
      '- `generateSignature` returns a promise: `await` it.',
      '',
      '### Also',
      '',
      '- A new entry.',
    ].join('\n');
    const file = `${CHANGELOG_INTRO}\n${handWritten}\n\n## 2.0.0 (2026-01-01)\n\nThe contract 2.0.0.\n`;
    const block = '### Contract 2.0.1\n\nChanges since 2.0.0: 1 documentation.\n';
    const released = withRelease(file, { package: '3.0.0', contract: '2.0.1', date: '2026-02-01' }, block);
    expect(releasesOf(released)).toEqual([
      { package: '3.0.0', contract: '2.0.1', date: '2026-02-01' },
      { package: '2.0.0', contract: '2.0.0', date: '2026-01-01' },
    ]);
    const body = sectionOf(released, '3.0.0')!.body;
    expect(body).toBe(`${handWritten.split('\n').slice(2).join('\n')}\n\n${block.trimEnd()}`);
    expect(contractChangesOf(released, '2.0.1')).toEqual({
      date: '2026-02-01',
      body: 'Changes since 2.0.0: 1 documentation.',
    });
    // A section of the old form (no block): the whole section is the contract's changes.
    expect(contractChangesOf(released, '2.0.0')).toEqual({ date: '2026-01-01', body: 'The contract 2.0.0.' });
    // Amended: the block is replaced where it stands, the rest kept.
    const amended = withRelease(
      released,
      { package: '3.0.0', contract: '2.0.1', date: '2026-02-02' },
      block.replace('1 documentation', '2 documentation'),
    );
    expect(sectionOf(amended, '3.0.0')!.body).toBe(body.replace('1 documentation', '2 documentation'));
    expect(releasesOf(amended)[0]).toEqual({ package: '3.0.0', contract: '2.0.1', date: '2026-02-02' });
    // Once the block is in, hand edits after it stay after it.
    const edited = amended.replace(
      'Changes since 2.0.0: 2 documentation.',
      'Changes since 2.0.0: 2 documentation.\n\n### Thanks\n\n- To the readers.',
    );
    const again = withRelease(edited, { package: '3.0.0', contract: '2.0.1', date: '2026-02-02' }, block);
    expect(sectionOf(again, '3.0.0')!.body.endsWith(`${block.trimEnd()}\n\n### Thanks\n\n- To the readers.`)).toBe(
      true,
    );
  });

  it("the first release: the introduction, and a section with the contract's operations", () => {
    const v = base.info.version as string;
    const first = withRelease(
      null,
      { package: v, contract: v, date: '2026-01-01' },
      initialBlock(base, resultCatalogOf(base)),
    );
    expect(first.startsWith(CHANGELOG_INTRO)).toBe(true);
    expect(releasesOf(first)).toEqual([{ package: v, contract: v, date: '2026-01-01' }]);
    expect(first).toContain(
      `\n## ${v} (2026-01-01)\n\n### Contract ${v}\n\nInitial release of the contract: 6 operations and 1 webhook`,
    );
    expect(contractChangesOf(first, v)!.body).toContain('- `tokenizeCard`: POST');
  });

  it("the docs page shows the changes of the contract's version, from CHANGELOG.md", () => {
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
    const section = changesSection(base, changelog);
    expect(section.startsWith(`## Changes in ${base.info.version}\n`)).toBe(true);
    expect(docsDocument(base, changelog).info.description).toContain(section);
    expect(changesSection({ info: { version: '9.9.9' } }, changelog)).toBe('');
    const html = readFileSync(join(root, 'generated/docs/index.html'), 'utf8');
    expect(html).toContain(`Changes in ${base.info.version}`);
  });
});

describe('the commands', () => {
  const node = process.execPath;
  const run = (cwd: string, script: string, ...args: string[]) =>
    spawnSync(node, [join(cwd, 'scripts', script), ...args], { cwd, encoding: 'utf8', timeout: 60_000 });

  it('check:breaking passes on the contract as released', () => {
    const result = run(root, 'check-breaking.mjs');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
    expect(result.stdout).toContain(
      `check:breaking: passed (${pkg === base.info.version ? `version ${pkg}` : `contract ${base.info.version}, package ${pkg}`})`,
    );
    expect(result.status).toBe(0);
    expect(readFileSync(join(root, 'openapi/released/openapi.json'), 'utf8')).toBe(
      `${JSON.stringify(base, null, 2)}\n`,
    );
  });

  it('check:breaking fails with a readable report on a breaking edit of a copy without a major bump', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-contract-breaking-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(
        file,
        JSON.stringify(
          edited((d) => {
            S(d).WalletInfo.properties.paymentFlow.enum = ['PAY'];
          }),
        ),
      );
      // The three runs at once, each a process of its own.
      const [result, asJson, misspelt] = await Promise.all([
        runNode([join(root, 'scripts/check-breaking.mjs'), '--contract', file], { cwd: root, timeoutMs: 60_000 }),
        runNode([join(root, 'scripts/check-breaking.mjs'), '--contract', file, '--json'], {
          cwd: root,
          timeoutMs: 60_000,
        }),
        runNode([join(root, 'scripts/check-breaking.mjs'), '--contrat', file], { cwd: root, timeoutMs: 60_000 }),
      ]);
      expect(result.status).toBe(1);
      expect(result.stdout).toContain(
        '  BREAKING  request body.walletInfo.paymentFlow: value "ADDNAPAY" no longer accepted',
      );
      expect(result.stdout).toContain('check:breaking: FAILED');
      const json = JSON.parse(asJson.stdout);
      expect(json).toMatchObject({
        ok: false,
        required: 'major',
        changes: [{ operation: 'initiatePayment', level: 'breaking' }],
      });
      expect(misspelt.status).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Failed before: the package's version had to equal the contract's, and the release replaced the
  // package's hand-written section.
  it("release:contract records a contract's release in the package's next version, is re-runnable, and --amend redoes it against the version before", () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-contract-release-'));
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], {
        cwd: dir,
        encoding: 'utf8',
      });
    // The contract released last and its next minor version; the package's next major version,
    // whose section holds its own changes, written by hand.
    const was = base.info.version as string;
    const next = nextVersions(was)!.minor;
    const pkgNow = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
    const pkgNext = nextVersions(pkgNow)!.major;
    const handWritten = `## ${pkgNext} (unreleased), contract ${was}\n\n### Breaking\n\n- Written by hand.\n`;
    try {
      for (const part of ['scripts', 'openapi', 'redocly.yaml', 'package.json', 'CHANGELOG.md'])
        cpSync(join(root, part), join(dir, part), { recursive: true });
      symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
      mkdirSync(join(dir, 'src'));
      symlinkSync(join(root, 'src/validation'), join(dir, 'src/validation'), 'dir');
      expect(git('init', '-q').status).toBe(0);
      expect(git('add', '-A').status).toBe(0);
      expect(git('commit', '-q', '-m', 'released').status).toBe(0);

      // Nothing to release; the gate passes on the files as they are.
      const idle = run(dir, 'release-contract.mjs');
      expect(idle.stdout).toContain('nothing to release');
      expect(idle.status).toBe(0);
      expect(run(dir, 'check-breaking.mjs').status).toBe(0);

      // The package's next major version, alone, with its section.
      const setPackage = (version: string) => {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, version }, null, 2));
      };
      setPackage(pkgNext);
      const changelogFile = join(dir, 'CHANGELOG.md');
      const intro = readFileSync(changelogFile, 'utf8');
      const firstSection = intro.indexOf('\n## ') + 1;
      writeFileSync(changelogFile, `${intro.slice(0, firstSection)}${handWritten}\n${intro.slice(firstSection)}`);
      expect(run(dir, 'check-breaking.mjs').status).toBe(0);
      expect(git('commit', '-q', '-am', `package ${pkgNext}`).status).toBe(0);

      // A compatible edit of the contract: a new optional field of the wallet.
      const walletFile = join(dir, 'openapi/components/schemas/WalletInfo.yaml');
      const wallet = parseYaml(readFileSync(walletFile, 'utf8'));
      wallet.properties.walletNote = { type: 'string', description: 'A note.' };
      writeFileSync(walletFile, stringifyYaml(wallet));
      const unbumped = run(dir, 'release-contract.mjs');
      expect(unbumped.status).toBe(1);
      expect(unbumped.stdout).toContain(`openapi/ changed since ${was} was released`);
      const setContract = (version: string) => {
        const rootFile = join(dir, 'openapi/openapi.yaml');
        writeFileSync(rootFile, readFileSync(rootFile, 'utf8').replace(/^ {2}version: \S+$/m, `  version: ${version}`));
      };
      setContract(next);
      const released = run(dir, 'release-contract.mjs', '--date', '2026-03-01');
      expect(released.stdout + released.stderr).toContain(
        `released ${next} (minor version, 1 change since ${was}) in package ${pkgNext}`,
      );
      expect(released.status).toBe(0);
      const changelog = readFileSync(changelogFile, 'utf8');
      expect(releasesOf(changelog).slice(0, 2)).toEqual([
        { package: pkgNext, contract: next, date: '2026-03-01' },
        expect.objectContaining({ contract: was }),
      ]);
      const section = sectionOf(changelog, pkgNext)!.body;
      expect(section.startsWith('### Breaking\n\n- Written by hand.\n\n### Contract')).toBe(true);
      expect(contractChangesOf(changelog, next)!.body).toContain(
        '- Notable: request body.walletInfo.walletNote: new optional field',
      );
      expect(JSON.parse(readFileSync(join(dir, 'openapi/released/openapi.json'), 'utf8')).info.version).toBe(next);
      expect(run(dir, 'check-breaking.mjs').status).toBe(0);
      expect(run(dir, 'release-contract.mjs').stdout).toContain('nothing to release');
      expect(git('commit', '-q', '-am', `release ${next}`).status).toBe(0);

      // Another edit before that version is published: amended, against the one before from history.
      wallet.properties.walletRef = { type: 'string', description: 'A reference.' };
      writeFileSync(walletFile, stringifyYaml(wallet));
      expect(run(dir, 'check-breaking.mjs').status).toBe(1);
      const amended = run(dir, 'release-contract.mjs', '--amend', '--date', '2026-03-02');
      expect(amended.stdout + amended.stderr).toContain(
        `released ${next} (minor version, 2 changes since ${was}) in package ${pkgNext}`,
      );
      const after = readFileSync(changelogFile, 'utf8');
      expect(releasesOf(after)[0]).toEqual({ package: pkgNext, contract: next, date: '2026-03-02' });
      expect(sectionOf(after, pkgNext)!.body).toContain('- Written by hand.');
      expect(contractChangesOf(after, next)!.body).toContain('walletRef');
      expect(run(dir, 'check-breaking.mjs').status).toBe(0);

      // Released (dated), the package cannot carry the next release of the contract; nor can a
      // package version lower than the contract's.
      wallet.properties.walletTag = { type: 'string', description: 'A tag.' };
      writeFileSync(walletFile, stringifyYaml(wallet));
      setContract(nextVersions(next)!.minor);
      const stale = run(dir, 'check-breaking.mjs');
      expect(stale.status).toBe(1);
      expect(stale.stdout).toContain(`package ${pkgNext} was released (2026-03-02) with contract ${next}`);
      setPackage(nextVersions(pkgNext)!.minor);
      expect(run(dir, 'check-breaking.mjs').status).toBe(0);
      setPackage(nextVersions(pkgNext)!.patch);
      expect(run(dir, 'check-breaking.mjs').stdout).toContain('the contract takes a minor bump');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
