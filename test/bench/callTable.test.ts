import { describe, expect, it } from 'vitest';
import { perDocument, perFunction } from '../../bench/support/callTable.js';
import type { CallCount } from '../../lambdas/shared/callCount.js';

// Counts as the function workers report them: the same operation from several functions, and a
// call the runtime sent itself (no function).
const counts: CallCount[] = [
  { service: 'DynamoDB', operation: 'GetItem', calls: 10, function: 'parse' },
  { service: 'DynamoDB', operation: 'GetItem', calls: 20, function: 'validate' },
  { service: 'DynamoDB', operation: 'UpdateItem', calls: 10, function: 'parse' },
  { service: 'S3', operation: 'GetObject', calls: 10, function: 'parse' },
  { service: 'SQS', operation: 'SendMessage', calls: 10 },
];

describe('calls per document', () => {
  it('sums an operation over the functions that sent it', () => {
    // Act
    const rows = perDocument(counts, 10);

    // Assess
    expect(rows).toEqual([
      { service: 'DynamoDB', operation: 'GetItem', perDocument: 3 },
      { service: 'DynamoDB', operation: 'UpdateItem', perDocument: 1 },
      { service: 'S3', operation: 'GetObject', perDocument: 1 },
      { service: 'SQS', operation: 'SendMessage', perDocument: 1 },
    ]);
  });

  it('tells each function its calls by service and operation, most first, the runtime own calls apart', () => {
    // Act
    const rows = perFunction(counts, 10);

    // Assess
    expect(rows).toEqual([
      {
        function: 'parse',
        perDocument: 3,
        byService: { DynamoDB: 2, S3: 1 },
        byOperation: { 'DynamoDB GetItem': 1, 'DynamoDB UpdateItem': 1, 'S3 GetObject': 1 },
      },
      {
        function: 'validate',
        perDocument: 2,
        byService: { DynamoDB: 2 },
        byOperation: { 'DynamoDB GetItem': 2 },
      },
      { function: '(runtime)', perDocument: 1, byService: { SQS: 1 }, byOperation: { 'SQS SendMessage': 1 } },
    ]);
  });
});
