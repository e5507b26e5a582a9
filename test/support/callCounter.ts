import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

let counters = 0;

/**
 * Counts the DynamoDB operations a client sends (GetItem, PutItem, ...), by adding a step to its
 * middleware stack: the real calls still go to the emulator. `stop()` removes the step.
 */
export const countCalls = (client: DynamoDBDocumentClient) => {
  const counts = new Map<string, number>();
  const name = `docketCallCounter${++counters}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      counts.set(operation, (counts.get(operation) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    snapshot: () => Object.fromEntries(counts) as Record<string, number>,
    reset: () => counts.clear(),
    stop: () => client.middlewareStack.remove(name),
  };
};
