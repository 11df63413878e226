/**
 * The model step (scrape/llm/model-formats.ts) against a local chat-completions server
 * (test/helpers/fake-llm.ts): json_object mode for servers without structured outputs, a prompt
 * without a schema, the page cut at LLM_MAX_INPUT_CHARS, a refusal (401) failing at once, a
 * timeout tried once more, and the request-time schema checks.
 */
import { type FakeLlm, startFakeLlm } from '../../test/helpers/fake-llm';
import { AppError } from '../../platform/errors';
import { type LlmSettings, assertModelFormatsConfigured, runModelFormats } from './model-formats';
import { jsonSchemaProblem } from './json-schema';

let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(() => llm.close());
beforeEach(() => llm.reset());

const settings = (over: Partial<LlmSettings> = {}): LlmSettings => ({
  baseUrl: llm.baseUrl,
  model: 'm',
  timeoutMs: 5000,
  maxInputChars: 1000,
  maxOutputTokens: 256,
  responseFormat: 'json_schema',
  ...over,
});

async function failure(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

describe('the model formats', () => {
  it('json_object mode, and a prompt without a schema: any JSON object is accepted; the page is cut at maxInputChars', async () => {
    llm.script({ content: '{"anything": [1, 2]}' });
    const page = `# Title\n\n${'word '.repeat(500)}`;
    const out = await runModelFormats(settings({ responseFormat: 'json_object' }), page, { json: { type: 'json', prompt: 'Whatever you see.' } });
    expect(out.json).toEqual({ anything: [1, 2] });
    expect(llm.calls[0]!.body.response_format).toEqual({ type: 'json_object' });
    expect(llm.calls[0]!.body.max_tokens).toBe(256);
    const user = llm.calls[0]!.body.messages!.at(-1)!.content;
    expect(user).toContain('Whatever you see.');
    expect(user).toContain('[… the page was cut here]');
    expect(user.length).toBeLessThan(1400);
    expect(llm.calls[0]!.authorization).toBeUndefined();
  });

  it('a refusal of the endpoint (401) fails LLM_FAILED at once; a string that is not JSON twice is LLM_INVALID_OUTPUT', async () => {
    llm.script({ status: 401, content: 'bad key' });
    const refused = await failure(runModelFormats(settings({ apiKey: 'k-1' }), 'page', { summary: { type: 'summary' } }));
    expect(refused.code).toBe('LLM_FAILED');
    expect(refused.message).toContain('HTTP 401');
    expect(refused.message).not.toContain('k-1');
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]!.authorization).toBe('Bearer k-1');

    llm.reset();
    llm.script({ content: 'no' }, { content: '' });
    const invalid = await failure(runModelFormats(settings(), 'page', { json: { type: 'json', schema: { type: 'object' } } }));
    expect(invalid.code).toBe('LLM_INVALID_OUTPUT');
    expect(invalid.extra.llm_usage).toEqual({ model: 'm', prompt_tokens: 20, completion_tokens: 10, calls: 2 });
  });

  it('an unreachable endpoint is LLM_FAILED after a second try', async () => {
    const closed = await startFakeLlm();
    await closed.close();
    const unreachable = await failure(runModelFormats(settings({ baseUrl: closed.baseUrl }), 'page', { summary: { type: 'summary' } }));
    expect(unreachable.code).toBe('LLM_FAILED');
    expect(unreachable.message).toContain('could not be reached');
  });

  it('checks schemas at request time and refuses model formats without a model', () => {
    expect(jsonSchemaProblem({ type: 'object', properties: { a: { type: 'string', minLength: 1 } } })).toBeUndefined();
    expect(jsonSchemaProblem({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'string' }] })).toBeUndefined();
    expect(jsonSchemaProblem({ type: 'object', properties: { a: { type: 'strin' } } })).toContain('schema/properties/a/type');
    expect(jsonSchemaProblem({ $ref: '#/definitions/missing' })).toContain("can't resolve reference");
    expect(jsonSchemaProblem({ $schema: 'http://json-schema.org/draft-04/schema#' })).toContain('not supported');
    expect(() => assertModelFormatsConfigured({}, ['summary'])).toThrow(expect.objectContaining({ code: 'LLM_NOT_CONFIGURED' }) as Error);
    expect(() => assertModelFormatsConfigured({}, [{ type: 'json', css: { fields: [{ name: 'a', type: 'text' }] } }])).not.toThrow();
    expect(() => assertModelFormatsConfigured({ LLM_BASE_URL: 'http://127.0.0.1:1/v1', LLM_MODEL: 'm' }, ['summary'])).not.toThrow();
  });
});
