// A format thread of scrape/formats/threads.ts. Plain CommonJS so that it loads the same way in
// every process that starts one (under `node --import tsx`, or inside Jest): tsx compiles the
// TypeScript it requires.
'use strict';
require('tsx/cjs/api').register();
const { documentOutputs } = require('./index.ts');

module.exports = ({ req, html, response }) => documentOutputs(req, html, response);
