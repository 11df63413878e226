/**
 * Path ids. Every id this service issues is a UUID or a library-generated token: letters, digits,
 * `-` and `_`, at most 128 characters. Anything else (a NUL byte, `%2F`, 10 kB of text) cannot
 * name a resource: it answers 404 in the standard body before any query runs (PostgreSQL refuses
 * a NUL byte in text, which used to surface as a 500). The route table checks each declared id
 * (api/route-table.ts) before the credential.
 */
import { z } from 'zod';

export const idSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

export const MALFORMED_ID_MESSAGE = 'No resource with that id: ids are 1 to 128 letters, digits, "-" or "_"';
