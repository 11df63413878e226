/**
 * JSON Schema checks of the json format (docs/scraping.md "Structured output"), by Ajv — the most
 * used JSON Schema validator for JavaScript, maintained, and complete for drafts 07 and 2020-12 —
 * rather than by hand: at request time the given `schema` must be a valid JSON Schema that
 * compiles (else 400), and the model's answer must validate against it.
 *
 * The draft is the schema's `$schema` when it names 2020-12 (or 2019-09, read as 2020-12), else
 * draft-07 (what most tools, Zod's and Pydantic's exporters included, emit). `strict: false`:
 * keywords Ajv does not know (`title` variants, vendor `x-…` fields) are ignored as the spec says,
 * not refused. Formats (`"format": "email"`) are annotations only (no ajv-formats): a model's
 * answer is not refused over a format the schema merely describes.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';

const options = { strict: false, allErrors: true, validateFormats: false } as const;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function validatorFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/2020-12|2019-09/.test(declared)) return (draft2020 ??= new Ajv2020(options));
  return (draft07 ??= new Ajv(options));
}

/** Without `$schema` (draft-07 then), or with one Ajv knows; other drafts are refused by name. */
function withKnownDraft(schema: Record<string, unknown>): Record<string, unknown> {
  const declared = schema.$schema;
  if (declared === undefined || (typeof declared === 'string' && /draft-07|2020-12|2019-09/.test(declared))) {
    // 2019-09 is validated as 2020-12 (the keywords a model's answer meets are the same).
    return typeof declared === 'string' && declared.includes('2019-09') ? { ...schema, $schema: 'https://json-schema.org/draft/2020-12/schema' } : schema;
  }
  throw new Error(`$schema ${JSON.stringify(declared)} is not supported (use draft-07 or 2020-12, or leave $schema out)`);
}

/** Why `schema` is not a usable JSON Schema (meta-schema errors, an unresolved $ref…), or undefined when it is. */
export function jsonSchemaProblem(schema: Record<string, unknown>): string | undefined {
  try {
    compileJsonSchema(schema);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A validator for `schema` (throws when it is not a valid JSON Schema). Not kept: each run compiles its own. */
export function compileJsonSchema(schema: Record<string, unknown>): ValidateFunction {
  const known = withKnownDraft(schema);
  const ajv = validatorFor(known);
  if (!ajv.validateSchema(known)) throw new Error(ajv.errorsText(ajv.errors, { dataVar: 'schema' }));
  // `$id`s would be registered on the shared instance by compile: a schema is compiled without them,
  // and taken out of the instance's cache after (it keys by the object: every request's is new).
  const own = stripIds(known);
  try {
    return ajv.compile(own);
  } finally {
    ajv.removeSchema(own);
  }
}

function stripIds(schema: Record<string, unknown>): Record<string, unknown> {
  const { $id: _id, ...rest } = schema;
  return rest;
}

/** The validation errors of `value` against a compiled schema, as one line, or undefined when it is valid. */
export function validationProblem(validate: ValidateFunction, value: unknown): string | undefined {
  if (validate(value)) return undefined;
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`).join('; ');
}
