// `npm run docs:layers`: writes the package graph of scripts/lint/layers.js into docs/architecture.md, between the
// markers around its Mermaid block (test/architecture/layers.test.ts fails when the two differ).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, mermaid } = require('./layers');

const file = path.join(ROOT, 'docs', 'architecture.md');
const START = '<!-- layers: written by npm run docs:layers -->';
const END = '<!-- end of layers -->';
const doc = fs.readFileSync(file, 'utf8');
const from = doc.indexOf(START);
const to = doc.indexOf(END);
if (from < 0 || to < from) throw new Error(`docs/architecture.md has no ${START} … ${END} block`);
const block = `${START}\n\n\`\`\`mermaid\n${mermaid()}\n\`\`\`\n\n`;
fs.writeFileSync(file, doc.slice(0, from) + block + doc.slice(to));
console.log(`docs/architecture.md: the package graph written (${mermaid().split('\n').length} lines)`);
