/**
 * A local server speaking the OpenAI chat-completions protocol (`POST /v1/chat/completions`) for
 * the model formats' tests (docs/scraping.md "Structured output"): it records every request as
 * received and answers from a script, one scripted answer per call, so a test says exactly what
 * "the model" answers and checks what it was asked. Never a hosted model. Loopback only.
 */
import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  /** The assistant message's content. */
  content?: string;
  /** The HTTP status (default 200); a non-2xx answers `{error: {message}}`. */
  status?: number;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Never answer (a model that hangs): the request stays open until reset() or close(). */
  hang?: boolean;
}

export interface ReceivedCall {
  path: string;
  authorization: string | undefined;
  body: {
    model?: string;
    messages?: Array<{ role: string; content: string }>;
    response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
    max_tokens?: number;
    [key: string]: unknown;
  };
}

export interface FakeLlm {
  /** The API root to configure as LLM_BASE_URL (`…/v1`). */
  baseUrl: string;
  calls: ReceivedCall[];
  /** Queues answers for the next calls, in order; a call with nothing queued answers 500. */
  script(...answers: ScriptedAnswer[]): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const calls: ReceivedCall[] = [];
  let queue: ScriptedAnswer[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: ReceivedCall['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedCall['body'];
      } catch {
        // recorded as an empty body: the test's shape checks fail on it
      }
      calls.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      const answer = req.method === 'POST' && req.url === '/v1/chat/completions' ? queue.shift() : { status: 404, content: 'not found' };
      if (answer?.hang) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      const status = answer?.status ?? (answer ? 200 : 500);
      res.setHeader('content-type', 'application/json');
      if (status !== 200) {
        res.writeHead(status).end(JSON.stringify({ error: { message: answer?.content ?? 'no scripted answer' } }));
        return;
      }
      res.writeHead(200).end(
        JSON.stringify({
          id: `chatcmpl-${calls.length}`,
          object: 'chat.completion',
          created: 1_700_000_000,
          model: body.model ?? 'unknown',
          choices: [{ index: 0, message: { role: 'assistant', content: answer!.content ?? '' }, finish_reason: 'stop' }],
          usage: { ...(answer!.usage ?? { prompt_tokens: 10, completion_tokens: 5 }), total_tokens: (answer!.usage?.prompt_tokens ?? 10) + (answer!.usage?.completion_tokens ?? 5) },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    script: (...answers) => void queue.push(...answers),
    reset: () => {
      calls.length = 0;
      queue = [];
      for (const res of hanging) res.destroy();
    },
    close: () => {
      for (const res of hanging) res.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
