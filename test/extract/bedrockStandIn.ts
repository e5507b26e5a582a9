import { createServer, type Http2ServerRequest } from 'node:http2';
import type { AddressInfo } from 'node:net';

/** A request the stand-in received. */
export interface ConverseRequest {
  modelId: string;
  body: Record<string, unknown>;
}

/** What the stand-in answers: status, JSON body and (for errors) the error type header. */
export interface StandInReply {
  status?: number;
  body: unknown;
  errorType?: string;
}

const readBody = async (req: Http2ServerRequest): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * A local stand-in for the Bedrock Runtime Converse API (`POST /model/{modelId}/converse`) on a free
 * port. Bedrock has no local implementation, so this is the one boundary the tests mock. It speaks
 * cleartext HTTP/2 because the Bedrock Runtime client's default handler does. Replies are scripted
 * per call; every request is recorded.
 */
export const startBedrockStandIn = async (
  script: (request: ConverseRequest, call: number) => StandInReply,
) => {
  const requests: ConverseRequest[] = [];
  const server = createServer(async (req, res) => {
    const match = /^\/model\/([^/]+)\/converse$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match?.[1]) {
      res.writeHead(404, {
        'content-type': 'application/json',
        'x-amzn-errortype': 'UnknownOperationException',
      });
      res.end(JSON.stringify({ message: `no route ${req.method} ${req.url}` }));
      return;
    }
    const request = {
      modelId: decodeURIComponent(match[1]),
      body: JSON.parse(await readBody(req)) as Record<string, unknown>,
    };
    requests.push(request);
    const reply = script(request, requests.length);
    res.writeHead(reply.status ?? 200, {
      'content-type': 'application/json',
      ...(reply.errorType ? { 'x-amzn-errortype': reply.errorType } : {}),
    });
    res.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** A Converse reply in which the model calls `name` with `input`. */
export const toolUseReply = (name: string, input: unknown): StandInReply => ({
  body: {
    output: {
      message: { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_1', name, input } }] },
    },
    stopReason: 'tool_use',
    usage: { inputTokens: 100, outputTokens: 50, totalTokens: 150 },
    metrics: { latencyMs: 10 },
  },
});

/** A Converse reply with text only. */
export const textReply = (text: string): StandInReply => ({
  body: {
    output: { message: { role: 'assistant', content: [{ text }] } },
    stopReason: 'end_turn',
    usage: { inputTokens: 100, outputTokens: 5, totalTokens: 105 },
    metrics: { latencyMs: 10 },
  },
});
