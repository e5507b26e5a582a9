import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TextractClient } from '@aws-sdk/client-textract';

/*
 * A stand-in for the Amazon Textract API, which has no local implementation: an HTTP server on
 * 127.0.0.1 speaking its protocol (AWS JSON 1.1, `X-Amz-Target: Textract.<Operation>`), so the
 * real SDK client serialises and parses as it would against AWS. It answers what a test scripts.
 */

/** A scripted answer: the JSON body, or an AWS error by its type. */
export type StandInAnswer =
  | { body: Record<string, unknown> }
  | { error: string; message: string; status?: number };

/** One request the stand-in received. */
export interface StandInCall {
  operation: string;
  input: Record<string, unknown>;
}

/** A running stand-in: its client, what it was asked, and the answers still to give per operation. */
export interface TextractStandIn {
  client: TextractClient;
  calls: StandInCall[];
  answers: Map<string, StandInAnswer[]>;
  close: () => Promise<void>;
}

/** Starts the stand-in; `answers` are given in order, per operation. */
export const startTextractStandIn = async (): Promise<TextractStandIn> => {
  const calls: StandInCall[] = [];
  const answers = new Map<string, StandInAnswer[]>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const operation = String(request.headers['x-amz-target'] ?? '').replace(/^Textract\./, '');
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      calls.push({ operation, input });
      const answer = answers.get(operation)?.shift() ?? {
        error: 'InternalServerError',
        message: `the stand-in has no answer left for ${operation}`,
      };
      response.setHeader('content-type', 'application/x-amz-json-1.1');
      if ('body' in answer) {
        response.end(JSON.stringify(answer.body));
        return;
      }
      response.statusCode = answer.status ?? 400;
      response.end(JSON.stringify({ __type: answer.error, message: answer.message }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new TextractClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
  return {
    client,
    calls,
    answers,
    close: async () => {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/** A WORD block. */
const word = (
  id: string,
  text: string,
  left: number,
  top: number,
  width: number,
  confidence: number,
  page = 1,
) => ({
  BlockType: 'WORD',
  Id: id,
  Page: page,
  Text: text,
  Confidence: confidence,
  Geometry: { BoundingBox: { Left: left, Top: top, Width: width, Height: 0.012 } },
});

/** A LINE block over its words. */
const line = (id: string, words: ReturnType<typeof word>[], page = 1) => {
  const left = Math.min(...words.map((w) => w.Geometry.BoundingBox.Left));
  const right = Math.max(...words.map((w) => w.Geometry.BoundingBox.Left + w.Geometry.BoundingBox.Width));
  const top = Math.min(...words.map((w) => w.Geometry.BoundingBox.Top));
  return {
    BlockType: 'LINE',
    Id: id,
    Page: page,
    Text: words.map((w) => w.Text).join(' '),
    Confidence: Math.min(...words.map((w) => w.Confidence)),
    Geometry: { BoundingBox: { Left: left, Top: top, Width: right - left, Height: 0.012 } },
    Relationships: [{ Type: 'CHILD', Ids: words.map((w) => w.Id) }],
  };
};

/**
 * The blocks Textract returns for a two-page German invoice: a heading, a table row that Textract
 * splits into two LINE blocks (as it does for cells far apart), and a total on page 2.
 */
export const invoiceBlocks = (): Record<string, unknown>[] => {
  const heading = [
    word('w1', 'Rechnung', 0.1, 0.1, 0.12, 99.1),
    word('w2', 'Nr.', 0.23, 0.1, 0.04, 98.7),
    word('w3', '471102', 0.28, 0.1, 0.08, 97.5),
  ];
  const rowLeft = [word('w4', 'Trennblätter', 0.1, 0.4, 0.14, 96.2)];
  const rowRight = [word('w5', '198,00', 0.8, 0.401, 0.08, 71.3)];
  const total = [
    word('w6', 'Bruttosumme', 0.1, 0.2, 0.14, 95, 2),
    word('w7', '529,87', 0.8, 0.2, 0.08, 88.8, 2),
  ];
  return [
    { BlockType: 'PAGE', Id: 'p1', Page: 1 },
    line('l1', heading),
    ...heading,
    line('l2', rowLeft),
    ...rowLeft,
    line('l3', rowRight),
    ...rowRight,
    { BlockType: 'PAGE', Id: 'p2', Page: 2 },
    line('l4', total, 2),
    ...total,
  ];
};
