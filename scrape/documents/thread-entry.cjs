// A document thread of scrape/documents/threads.ts. Plain CommonJS so that it loads the same way
// in every process that starts one (under `node --import tsx`, or inside Jest): tsx compiles the
// TypeScript it requires. The converter of the task's kind is loaded first (a new thread compiles
// it), then `started` is posted: the conversion's own time limit runs from there.
'use strict';
require('tsx/cjs/api').register();

module.exports = async ({ kind, bytes, maxPages, started }) => {
  let convert;
  if (kind === 'pdf') {
    const pdf = require('./pdf.ts');
    await pdf.loadPdfJs();
    convert = () => pdf.convertPdf(bytes, { maxPages });
  } else {
    const docx = require('./docx.ts');
    convert = () => docx.convertDocx(bytes);
  }
  started.postMessage('started');
  started.close();
  return convert();
};
