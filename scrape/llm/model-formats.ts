/**
 * The model formats (docs/scraping.md "Structured output"): `{type: "json", schema, prompt?}` and
 * `summary`, done by an OpenAI-compatible chat-completions endpoint the operator configures
 * (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL: a local Ollama or vLLM, or a hosted service).
 *
 * - Input: the page's main content as markdown (the same the `markdown` format gives), cut at
 *   LLM_MAX_INPUT_CHARS; the answer at most LLM_MAX_OUTPUT_TOKENS.
 * - json: `response_format` json_schema (the request's schema) or json_object (LLM_RESPONSE_FORMAT,
 *   for servers without structured outputs); the answer must parse and validate against the
 *   schema (Ajv: scrape/llm/json-schema.ts). An invalid answer is asked again once, the
 *   validation errors told to the model; invalid twice: LLM_INVALID_OUTPUT.
 * - summary: plain text; an empty answer is asked again once, then LLM_INVALID_OUTPUT.
 * - The endpoint failing (unreachable, a timeout, 5xx, 429) is tried once more; then, or on any
 *   other refusal (401, 404, 400…), LLM_FAILED. Both codes are final for the scrape activity
 *   (never a new scrape): the run fails and is refunded.
 *
 * The endpoint is the operator's, not a scrape target: the private-target guard does not apply
 * (a model on loopback or the private network is the usual set-up). The key is sent as a Bearer
 * token and never logged or stored.
 */
import { fetch } from 'undici';
import { AppError } from '../../platform/errors';
import { type FormatEntry, type LlmUsage, type SchemaJsonFormat, type SummaryFormat, schemaJsonFormat, summaryFormat } from '../types';
import { compileJsonSchema, validationProblem } from './json-schema';

export interface LlmSettings {
  /** The API root, e.g. `http://127.0.0.1:11434/v1` (the request goes to `${baseUrl}/chat/completions`). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  maxInputChars: number;
  maxOutputTokens: number;
  responseFormat: 'json_schema' | 'json_object';
}

interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What one model format gave, and what it cost in tokens. */
export interface ModelOutputs {
  json?: unknown;
  summary?: string;
  llm_usage: LlmUsage;
}

const JSON_SYSTEM =
  'You extract structured data from a web page given as Markdown. Answer with one JSON value that is valid against the JSON Schema given, and nothing else: no prose, no code fences. Use only facts present in the page; use null where the schema allows it and the page has no value.';
const SUMMARY_SYSTEM = 'You summarise web pages given as Markdown. Answer with the summary only, in plain text, in the language of the page.';
const DEFAULT_SUMMARY_PROMPT = 'Summarise this page in a few sentences: what it is and the main points it makes.';

class Usage {
  prompt = 0;
  completion = 0;
  calls = 0;
  constructor(private readonly model: string) {}
  add(usage: unknown): void {
    this.calls++;
    const u = (usage ?? {}) as { prompt_tokens?: unknown; completion_tokens?: unknown };
    if (typeof u.prompt_tokens === 'number' && Number.isFinite(u.prompt_tokens)) this.prompt += Math.max(0, Math.round(u.prompt_tokens));
    if (typeof u.completion_tokens === 'number' && Number.isFinite(u.completion_tokens)) this.completion += Math.max(0, Math.round(u.completion_tokens));
  }
  get value(): LlmUsage {
    return { model: this.model, prompt_tokens: this.prompt, completion_tokens: this.completion, calls: this.calls };
  }
}

function pageMessage(settings: LlmSettings, markdown: string, instruction: string): string {
  const page = markdown.length > settings.maxInputChars ? `${markdown.slice(0, settings.maxInputChars)}\n\n[… the page was cut here]` : markdown;
  return `${instruction}\n\n--- PAGE (Markdown) ---\n${page}`;
}

/** Whether a failed call may succeed if made again (the endpoint's own trouble, not a refusal). */
function isTransient(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

/** One chat completion: the answer's text and its token usage; AppError LLM_FAILED (with `transient`) otherwise. */
async function chatCompletion(settings: LlmSettings, body: Record<string, unknown>, signal?: AbortSignal): Promise<{ content: string; usage: unknown }> {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  let response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    const reason = timeout.aborted ? `no answer within ${settings.timeoutMs} ms` : error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new AppError('LLM_FAILED', `the model endpoint could not be reached: ${reason}`, { transient: true });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new AppError('LLM_FAILED', `the model endpoint's answer could not be read: ${error instanceof Error ? error.message : String(error)}`, { transient: true });
  }
  if (!response.ok) {
    // Its status and a fixed message, never its body: a hosted endpoint's refusal may quote the
    // key it was sent, masked or not (issue 37), and the message reaches the user and the run row.
    const transient = isTransient(response.status);
    throw new AppError('LLM_FAILED', transient ? `the model endpoint failed (HTTP ${response.status})` : `the model endpoint refused the request (HTTP ${response.status})`, { transient });
  }
  let parsed: { choices?: Array<{ message?: { content?: unknown } }>; usage?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new AppError('LLM_FAILED', 'the model endpoint answered something that is not a chat completion (not JSON)', { transient: true });
  }
  const content = parsed.choices?.[0]?.message?.content;
  return { content: typeof content === 'string' ? content : '', usage: parsed.usage };
}

/** A call, made again once when the endpoint's failure was transient. */
async function callOnceMore(settings: LlmSettings, body: Record<string, unknown>, usage: Usage, signal?: AbortSignal): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await chatCompletion(settings, body, signal);
      usage.add(answer.usage);
      return answer.content;
    } catch (error) {
      if (attempt >= 2 || !(error instanceof AppError) || error.extra.transient !== true) throw withoutTransient(error);
    }
  }
}

function withoutTransient(error: unknown): unknown {
  if (error instanceof AppError && 'transient' in error.extra) {
    const { transient: _transient, ...extra } = error.extra;
    return new AppError(error.code, error.message, extra);
  }
  return error;
}

/** The JSON inside an answer: the whole text, or a ```json fence some models add anyway. */
function parseAnswer(content: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  const text = (fenced ? fenced[1]! : content).trim();
  if (text === '') return { ok: false, problem: 'the answer was empty' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: `the answer is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** `{type: "json", schema?, prompt?}` on a page's markdown: the answer, valid against the schema. */
export async function extractJson(settings: LlmSettings, markdown: string, format: SchemaJsonFormat, usage: Usage, signal?: AbortSignal): Promise<unknown> {
  // Without a schema (a prompt alone, as Firecrawl allows): any JSON object or array.
  const schema = format.schema ?? { type: ['object', 'array'] };
  const validate = compileJsonSchema(schema);
  const instruction = `${format.prompt ?? 'Extract the data the schema describes from this page.'}\n\nJSON Schema of the answer:\n${JSON.stringify(schema)}`;
  const messages: ChatMessage[] = [
    { role: 'system', content: JSON_SYSTEM },
    { role: 'user', content: pageMessage(settings, markdown, instruction) },
  ];
  const responseFormat =
    settings.responseFormat === 'json_schema' && format.schema
      ? { type: 'json_schema', json_schema: { name: 'extraction', schema: format.schema, strict: false } }
      : { type: 'json_object' };
  let problem = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    const content = await callOnceMore(settings, { model: settings.model, messages, response_format: responseFormat, max_tokens: settings.maxOutputTokens, temperature: 0 }, usage, signal);
    const parsed = parseAnswer(content);
    problem = parsed.ok ? (validationProblem(validate, parsed.value) ?? '') : parsed.problem;
    if (parsed.ok && problem === '') return parsed.value;
    // Asked again once, with what was wrong.
    messages.push({ role: 'assistant', content }, { role: 'user', content: `That answer is not valid: ${problem}. Answer again with only the JSON value, valid against the schema.` });
  }
  throw new AppError('LLM_INVALID_OUTPUT', `the model's answer was not valid against the schema after a retry: ${problem.slice(0, 500)}`);
}

/** The summary format on a page's markdown: plain text, not empty. */
export async function summarise(settings: LlmSettings, markdown: string, format: SummaryFormat, usage: Usage, signal?: AbortSignal): Promise<string> {
  const messages: ChatMessage[] = [
    { role: 'system', content: SUMMARY_SYSTEM },
    { role: 'user', content: pageMessage(settings, markdown, format.prompt ?? DEFAULT_SUMMARY_PROMPT) },
  ];
  for (let attempt = 1; attempt <= 2; attempt++) {
    const content = (await callOnceMore(settings, { model: settings.model, messages, max_tokens: settings.maxOutputTokens, temperature: 0 }, usage, signal)).trim();
    if (content !== '') return content;
  }
  throw new AppError('LLM_INVALID_OUTPUT', 'the model answered an empty summary twice');
}

/**
 * The model formats a request asks for, on the scraped page's markdown. Without settings (no
 * LLM_BASE_URL / LLM_MODEL in this worker): LLM_NOT_CONFIGURED (the API refuses such requests up
 * front; this covers a worker configured differently from the API).
 */
export async function runModelFormats(
  settings: LlmSettings | undefined,
  markdown: string,
  wanted: { json?: SchemaJsonFormat; summary?: SummaryFormat },
  signal?: AbortSignal,
): Promise<ModelOutputs> {
  if (!settings) throw new AppError('LLM_NOT_CONFIGURED', 'this worker has no model endpoint (LLM_BASE_URL, LLM_MODEL) for the json schema and summary formats');
  const usage = new Usage(settings.model);
  const out: Omit<ModelOutputs, 'llm_usage'> = {};
  try {
    if (wanted.json) out.json = await extractJson(settings, markdown, wanted.json, usage, signal);
    if (wanted.summary) out.summary = await summarise(settings, markdown, wanted.summary, usage, signal);
  } catch (error) {
    if (error instanceof AppError) error.extra.llm_usage = usage.value;
    throw error;
  }
  return { ...out, llm_usage: usage.value };
}

/** The model settings of a process from its configuration; undefined without LLM_BASE_URL and LLM_MODEL. */
export function llmSettingsOf(config: {
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL?: string;
  LLM_TIMEOUT_MS: number;
  LLM_MAX_INPUT_CHARS: number;
  LLM_MAX_OUTPUT_TOKENS: number;
  LLM_RESPONSE_FORMAT: 'json_schema' | 'json_object';
}): LlmSettings | undefined {
  if (!config.LLM_BASE_URL || !config.LLM_MODEL) return undefined;
  return {
    baseUrl: config.LLM_BASE_URL,
    ...(config.LLM_API_KEY ? { apiKey: config.LLM_API_KEY } : {}),
    model: config.LLM_MODEL,
    timeoutMs: config.LLM_TIMEOUT_MS,
    maxInputChars: config.LLM_MAX_INPUT_CHARS,
    maxOutputTokens: config.LLM_MAX_OUTPUT_TOKENS,
    responseFormat: config.LLM_RESPONSE_FORMAT,
  };
}

/** 400 LLM_NOT_CONFIGURED for a request naming a model format when the service has no model: refused before any work or charge. */
export function assertModelFormatsConfigured(config: { LLM_BASE_URL?: string; LLM_MODEL?: string }, formats: readonly FormatEntry[] | undefined): void {
  if (config.LLM_BASE_URL && config.LLM_MODEL) return;
  const named = schemaJsonFormat(formats) ? 'a json format with `schema` or `prompt`' : summaryFormat(formats) ? 'the summary format' : undefined;
  if (named) throw new AppError('LLM_NOT_CONFIGURED', `${named} needs a model, and this service has none configured (the operator sets LLM_BASE_URL and LLM_MODEL); a json format with \`css\` needs none`);
}
