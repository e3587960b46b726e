import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const layers = require('../../scripts/lint/layers.js') as {
  ROOT: string;
  workspaces(): Array<{ dir: string; name: string; layer: string; level: number }>;
  layerViolations(): string[];
  mermaid(): string;
  manifest(dir: string): { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
};

const { ROOT } = layers;

/** The source files of a workspace that ship (tests beside the code may use the root's development packages). */
function shippedFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
        out.push(full);
    }
  };
  walk(path.join(ROOT, dir, 'src'));
  return out;
}

/** The packages a file imports by bare name ("axios", "@research/core"), Node's own modules left out. */
function importedPackages(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import\(|require\()\s*'([^'.][^']*)'/g)].map((m) => m[1]!);
  return specifiers
    .filter((s) => !s.startsWith('node:') && !builtinModules.includes(s.split('/')[0]!))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

/** What ESLint says of `code` placed at `filePath` (the repository's own configuration). */
function lint(code: string, filePath: string): string[] {
  const bin = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
  let out: string;
  try {
    out = execFileSync(process.execPath, [bin, '--stdin', '--stdin-filename', filePath, '--format', 'json'], {
      cwd: ROOT,
      input: code,
      encoding: 'utf8',
    });
  } catch (error) {
    out = (error as { stdout: string }).stdout;
  }
  const [result] = JSON.parse(out) as Array<{ messages: Array<{ ruleId: string; message: string }> }>;
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the layers of the code', () => {
  it('hold every workspace but the web page, which imports none', () => {
    const held = new Set(layers.workspaces().map((w) => w.dir));
    const all = ['packages', 'apps'].flatMap((top) =>
      fs.readdirSync(path.join(ROOT, top)).map((name) => `${top}/${name}`),
    );
    expect(all.filter((dir) => !held.has(dir))).toEqual(['apps/web']);
  });

  it('are kept by every package.json: a workspace depends only on packages of the layers below its own', () => {
    expect(layers.layerViolations()).toEqual([]);
  });

  it("are declared: every package a workspace's code imports is in its package.json", () => {
    const undeclared = layers.workspaces().flatMap(({ dir, name: self }) => {
      const m = layers.manifest(dir);
      const declared = new Set([self, ...Object.keys({ ...m.dependencies, ...m.peerDependencies })]);
      return shippedFiles(dir).flatMap((file) =>
        importedPackages(file)
          .filter((name) => !declared.has(name))
          .map((name) => `${path.relative(ROOT, file)} imports ${name}`),
      );
    });
    expect(undeclared).toEqual([]);
  });

  it('put the use cases between HTTP and the research: http reaches the pipeline and its services only through runs', () => {
    const http = layers.workspaces().find((w) => w.dir === 'packages/http')!;
    const declared = Object.keys(layers.manifest(http.dir).dependencies ?? {});
    const below = ['pipeline', 'engine', 'search', 'crawler', 'llm', 'queue'].map((p) => `@research/${p}`);
    expect(declared).toContain('@research/runs');
    expect(declared.filter((d) => below.includes(d))).toEqual([]);
    // The composition root builds the research tools and the LLM clients; the app only receives them.
    const app = fs.readFileSync(path.join(ROOT, 'packages/http/src/app.ts'), 'utf8');
    expect(app).not.toMatch(/createLlmClients|createResearchTools/);
  });

  it('fail the lint on an import across them, a deep import, or a package the page imports', () => {
    const upward = lint("import { createResearchRouter } from '@research/http';\n", 'packages/engine/src/probe.ts');
    expect(upward.join('\n')).toMatch(
      /no-restricted-imports: .*packages\/engine \(layer services\) may import @research\/core/,
    );
    const sideways = lint("import { createCrawler } from '@research/crawler';\n", 'packages/search/src/probe.ts');
    expect(sideways.join('\n')).toMatch(/no-restricted-imports/);
    const deep = lint("import { x } from '@research/core/src/config';\n", 'packages/engine/src/probe.ts');
    expect(deep.join('\n')).toMatch(/Import a package by its name/);
    const page = lint("import { VERSION } from '@research/core';\n", 'apps/web/src/probe.ts');
    expect(page.join('\n')).toMatch(/client of the API/);
    expect(
      lint("import { VERSION } from '@research/core';\nexport const v = VERSION;\n", 'packages/engine/src/probe.ts'),
    ).toEqual([]);
  });

  it('are drawn in docs/architecture.md as `npm run docs:layers` writes them', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
    expect(doc).toContain(`\`\`\`mermaid\n${layers.mermaid()}\n\`\`\``);
  });
});
