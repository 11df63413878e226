// A document thread of scrape/documents/threads.ts. Plain CommonJS so that it loads the same way
// in every process that starts one (under `node --import tsx`, or inside Jest): tsx compiles the
// TypeScript it requires.
'use strict';
require('tsx/cjs/api').register();
const { convertPdf } = require('./pdf.ts');
const { convertDocx } = require('./docx.ts');

module.exports = ({ kind, bytes, maxPages }) => (kind === 'pdf' ? convertPdf(bytes, { maxPages }) : convertDocx(bytes));
