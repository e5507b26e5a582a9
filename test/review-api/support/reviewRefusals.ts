import { json, type Refusal, type RefusalContext, send } from './refusals.js';

/**
 * The refusals of what a request asks for: bodies that are not what a route takes (422), and
 * reviews that cannot be claimed or decided now (409, 410).
 */
export const reviewRefusals = (ctx: RefusalContext): Record<string, Refusal> => ({
  '422 for a decision that is none': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send(ctx, 'POST', `/reviews/${ctx.reviews.claimed}/decision`, {
        token: ctx.tokens.alice,
        body: json({ decision: 'maybe' }),
      }),
    names: () => ['decision is "maybe"', '"approve", "correct", "reject"'],
    next: /Send \{"decision": "approve"\}/,
  },
  '422 for a field a decision does not take': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send(ctx, 'POST', `/reviews/${ctx.reviews.claimed}/decision`, {
        token: ctx.tokens.alice,
        body: json({ decision: 'approve', approvedBy: 'me' }),
      }),
    names: () => ['approvedBy is not a field this request takes'],
    next: /leave it out/,
  },
  '422 for a claim body that is not one': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send(ctx, 'POST', `/reviews/${ctx.reviews.claimed}/claim`, {
        token: ctx.tokens.alice,
        body: json({ takeOver: 'yes' }),
      }),
    names: () => ['takeOver is "yes"', 'true or false'],
    next: /A claim takes an empty body, or \{"takeOver": true\}/,
  },
  '422 for corrections that are not values': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send(ctx, 'POST', `/reviews/${ctx.reviews.claimed}/decision`, {
        token: ctx.tokens.alice,
        body: json({
          decision: 'correct',
          corrections: { totalValue: { amount: 'lots', currency: 'EUR' }, colour: 'red' },
        }),
      }),
    names: () => ['totalValue.amount is "lots"', 'colour is not a contract field'],
    next: /Correct those values and send the decision again/,
  },
  '422 for a rejection without a reason': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send(ctx, 'POST', `/reviews/${ctx.reviews.claimed}/decision`, {
        token: ctx.tokens.alice,
        body: json({ decision: 'reject' }),
      }),
    names: () => ['reason'],
    next: /send \{"decision": "reject", "reason": "why"\}/,
  },
  '422 for an approval of an incomplete record': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send(ctx, 'POST', `/reviews/${ctx.reviews.claimed}/decision`, {
        token: ctx.tokens.alice,
        body: json({ decision: 'approve' }),
      }),
    names: () => ['totalValue is missing'],
    next: /correct those fields, or reject the document/,
  },
  '422 for a document type with an approval': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send(ctx, 'POST', `/reviews/${ctx.reviews.claimed}/decision`, {
        token: ctx.tokens.alice,
        body: json({ decision: 'approve', docType: 'invoice' }),
      }),
    names: () => ['"approve"', '"invoice"'],
    next: /Send \{"decision": "correct", "docType": "invoice"/,
  },
  '422 for a cancel body that is not one': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send(ctx, 'POST', `/workflows/${ctx.reviews.decided}/cancel`, {
        token: ctx.tokens.admin,
        body: json({ reason: 5 }),
      }),
    names: () => ['reason is 5', 'text'],
    next: /Send \{\} or \{"reason": "why"\}/,
  },
  '422 for an upload body that is not one': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send(ctx, 'POST', '/uploads', {
        token: ctx.tokens.uploader,
        body: json({ fileName: '', size: 'big' }),
      }),
    names: () => ['fileName is empty', 'size is "big"'],
    next: /Send \{"fileName": "invoice.pdf"/,
  },
  '422 for a file name the key policy refuses': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send(ctx, 'POST', '/uploads', {
        token: ctx.tokens.uploader,
        body: json({ fileName: '../x.pdf', size: 10 }),
      }),
    names: () => ['"../x.pdf"'],
    next: /Use \/ only between folders/,
  },
  '422 for a state there is not': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () => send(ctx, 'GET', '/workflows?state=done', { token: ctx.tokens.alice }),
    names: () => ['"done"', 'completed'],
    next: /use one of .*or leave state out/,
  },
  '409 for a claim another reviewer holds': {
    status: 409,
    error: 'ReviewClaimed',
    send: () => send(ctx, 'POST', `/reviews/${ctx.reviews.claimed}/claim`, { token: ctx.tokens.bob }),
    names: () => ['alice', ctx.reviews.claimed, `until ${ctx.claimExpiresAt}`],
    next: /claim it again with \{"takeOver": true\}, or pick another review/,
  },
  '409 for a decision on a review another reviewer holds': {
    status: 409,
    error: 'ReviewClaimed',
    send: () =>
      send(ctx, 'POST', `/reviews/${ctx.reviews.claimed}/decision`, {
        token: ctx.tokens.bob,
        body: json({ decision: 'reject', reason: 'not ours' }),
      }),
    names: () => ['alice', ctx.reviews.claimed],
    next: /send the decision again with "takeOver": true/,
  },
  '409 for a review still being set up': {
    status: 409,
    error: 'ReviewNotReady',
    send: () => send(ctx, 'POST', `/reviews/${ctx.reviews.notReady}/claim`, { token: ctx.tokens.alice }),
    names: () => [ctx.reviews.notReady],
    next: /try again in a moment/,
  },
  '409 for a review already decided': {
    status: 409,
    error: 'ConflictError',
    send: () => send(ctx, 'POST', `/reviews/${ctx.reviews.recorded}/claim`, { token: ctx.tokens.bob }),
    names: () => ['alice', '"reject"'],
    next: /Pick another review from the queue/,
  },
  '409 for a workflow not waiting for review': {
    status: 409,
    error: 'ConflictError',
    send: () =>
      send(ctx, 'POST', `/reviews/${ctx.reviews.decided}/decision`, {
        token: ctx.tokens.bob,
        body: json({ decision: 'reject', reason: 'x' }),
      }),
    names: () => [ctx.reviews.decided, 'rejected'],
    next: /docket show/,
  },
  '409 for cancelling a finished workflow': {
    status: 409,
    error: 'ConflictError',
    send: () => send(ctx, 'POST', `/workflows/${ctx.reviews.decided}/cancel`, { token: ctx.tokens.admin }),
    names: () => [ctx.reviews.decided, 'rejected'],
    next: /Nothing was changed/,
  },
  '409 for retrying a finished workflow': {
    status: 409,
    error: 'ConflictError',
    send: () => send(ctx, 'POST', `/workflows/${ctx.reviews.decided}/retry`, { token: ctx.tokens.admin }),
    names: () => [ctx.reviews.decided, 'rejected'],
    next: /upload the document again/,
  },
  '410 for a review out of time': {
    status: 410,
    error: 'GoneError',
    send: () => send(ctx, 'POST', `/reviews/${ctx.reviews.expired}/claim`, { token: ctx.tokens.alice }),
    names: () => [ctx.reviews.expired, ctx.expiredDueAt],
    next: /upload the document again to have it reviewed/,
  },
});
