/**
 * Extraction over many pages (Firecrawl's extract, docs/firecrawl.md "Extract"): the pages' main
 * content is cut into chunks the model can read (LLM_MAX_INPUT_CHARS each, pages kept whole when
 * they fit, a longer page cut into parts), each chunk answered on its own against the request's
 * schema with `required` relaxed (a chunk may hold only part of the answer), and the partial
 * answers merged:
 * - arrays are concatenated, equal items (by their JSON) kept once;
 * - objects are merged key by key by the same rules;
 * - a scalar comes from the first chunk (in page order) that has one (not null).
 * The merged answer is then validated against the schema as given (required included).
 * `sources`: per top-level field, the page URLs of the chunks that gave it a value.
 * Pure: no I/O.
 */

export interface ExtractPage {
  url: string;
  markdown: string;
}

export interface ExtractChunk {
  text: string;
  /** The pages (whole or in part) in the chunk. */
  urls: string[];
}

/** Room kept in each chunk for the page headers and the instruction. */
const CHUNK_MARGIN = 200;

/** The pages in chunks of at most `maxChars` characters, in page order. */
export function chunkPages(pages: readonly ExtractPage[], maxChars: number): ExtractChunk[] {
  const size = Math.max(500, maxChars - CHUNK_MARGIN);
  const chunks: ExtractChunk[] = [];
  let current: ExtractChunk | undefined;
  for (const page of pages) {
    const header = `## Page: ${page.url}\n\n`;
    const body = page.markdown.trim();
    if (body === '') continue;
    // A page longer than a chunk is cut into parts, each with the page's header.
    const room = size - header.length;
    const parts = body.length <= room ? [body] : Array.from({ length: Math.ceil(body.length / room) }, (_, i) => body.slice(i * room, (i + 1) * room));
    for (const part of parts) {
      const piece = `${header}${part}\n\n`;
      if (!current || current.text.length + piece.length > size) {
        current = { text: '', urls: [] };
        chunks.push(current);
      }
      current.text += piece;
      if (!current.urls.includes(page.url)) current.urls.push(page.url);
    }
  }
  return chunks;
}

/** The schema with every `required` removed (at any depth): what one chunk's partial answer is checked against. */
export function relaxedSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(relaxedSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === 'required' && Array.isArray(value)) continue;
    out[key] = relaxedSchema(value);
  }
  return out;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const hasValue = (value: unknown) => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0);

/** Two partial answers as one (the rules above); `first` is the earlier chunk's. */
export function mergeValues(first: unknown, next: unknown): unknown {
  if (Array.isArray(first) && Array.isArray(next)) {
    const seen = new Set(first.map((item) => JSON.stringify(item)));
    const merged: unknown[] = [...(first as unknown[])];
    for (const item of next) {
      const key = JSON.stringify(item);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(item);
    }
    return merged;
  }
  if (isObject(first) && isObject(next)) {
    const merged: Record<string, unknown> = { ...first };
    for (const [key, value] of Object.entries(next)) merged[key] = key in first ? mergeValues(first[key], value) : value;
    return merged;
  }
  return hasValue(first) ? first : next;
}

export interface MergedAnswer {
  data: unknown;
  /** Per top-level field: the page URLs that gave it a value. */
  sources: Record<string, string[]>;
}

/** The chunks' answers, in chunk order, as one answer and its sources. */
export function mergeAnswers(answers: ReadonlyArray<{ value: unknown; urls: readonly string[] }>): MergedAnswer {
  let data: unknown = null;
  const sources: Record<string, string[]> = {};
  const credit = (field: string, urls: readonly string[]) => {
    const list = (sources[field] ??= []);
    for (const url of urls) if (!list.includes(url)) list.push(url);
  };
  for (const answer of answers) {
    if (isObject(answer.value)) {
      for (const [field, value] of Object.entries(answer.value)) {
        // A scalar already given by an earlier chunk is not this chunk's.
        const earlier = isObject(data) ? data[field] : undefined;
        if (hasValue(value) && (Array.isArray(value) || isObject(value) || !hasValue(earlier))) credit(field, answer.urls);
      }
    } else if (Array.isArray(answer.value) && answer.value.length > 0) credit('', answer.urls);
    data = data === null ? answer.value : mergeValues(data, answer.value);
  }
  return { data, sources };
}
