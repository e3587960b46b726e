// Lets a bench require the project's TypeScript test helpers (test/fakes, test/support, test/engine): .ts
// files are transpiled on require, without a type check (`npm run typecheck` does that). The packages
// themselves come from their compiled dist/, which every `npm run bench:*` builds first.
'use strict';
const fs = require('node:fs');
const ts = require('typescript');

if (!require.extensions['.ts']) {
  require.extensions['.ts'] = (module, filename) => {
    const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
      fileName: filename,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, esModuleInterop: true },
    });
    module._compile(outputText, filename);
  };
}
