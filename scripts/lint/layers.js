// The layers of the code, read by `npm run lint` (eslint.config.mjs turns them into import rules), by the
// architecture test (test/architecture/layers.test.ts: package.json files keep to them and declare every import) and
// by `npm run docs:layers`, which writes the package graph of docs/architecture.md. One place for the rule: a package
// may import the packages of the layers below its own, and only those its package.json declares.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

/** Top to bottom: a package may import packages of the layers below its own, never of its own or above. */
const LAYERS = [
  { name: 'apps', packages: ['apps/api', 'apps/worker'], does: 'composition roots: read the configuration, start' },
  { name: 'runtime', packages: ['packages/runtime'], does: 'builds a process and every service it uses' },
  { name: 'http', packages: ['packages/http'], does: 'routes, schemas, presenters, the page and /mcp' },
  {
    name: 'runs',
    packages: ['packages/runs'],
    does: 'the use cases: create, read, cancel, delete runs; their evidence; the research tools',
  },
  { name: 'pipeline', packages: ['packages/pipeline'], does: 'a run: its steps, budget, events, runner' },
  {
    name: 'services',
    packages: [
      'packages/engine',
      'packages/search',
      'packages/crawler',
      'packages/llm',
      'packages/queue',
      'packages/auth',
      'packages/mcp',
    ],
    does: 'research logic, the ways out (search, web, LLM), jobs, keys, MCP tools',
  },
  {
    name: 'storage',
    packages: ['packages/database', 'packages/observability'],
    does: 'schema and repositories; logs and metrics',
  },
  { name: 'core', packages: ['packages/core'], does: 'configuration, errors, the domain, interfaces' },
];

/** A workspace's package.json, parsed. */
function manifest(dir) {
  return JSON.parse(fs.readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8'));
}

/** Every workspace the layers hold: its folder, its package name, its layer's place (0 on top). */
function workspaces() {
  return LAYERS.flatMap((layer, level) =>
    layer.packages.map((dir) => ({ dir, name: manifest(dir).name, layer: layer.name, level })),
  );
}

/** The @research packages a workspace declares (dependencies and peer dependencies). */
function declaredResearch(dir) {
  const m = manifest(dir);
  return Object.keys({ ...m.dependencies, ...m.peerDependencies }).filter((d) => d.startsWith('@research/'));
}

/** The @research packages a workspace may import: declared in its package.json and in a layer below its own. */
function allowedImports(dir) {
  const all = workspaces();
  const self = all.find((w) => w.dir === dir);
  if (!self) throw new Error(`${dir} is in no layer of scripts/lint/layers.js`);
  const below = new Set(all.filter((w) => w.level > self.level).map((w) => w.name));
  return declaredResearch(dir).filter((d) => below.has(d));
}

/** package.json dependencies that break the layers: a package of its own layer or above, or none at all. */
function layerViolations() {
  const all = workspaces();
  const byName = new Map(all.map((w) => [w.name, w]));
  return all.flatMap((w) =>
    declaredResearch(w.dir).flatMap((d) => {
      const target = byName.get(d);
      if (!target) return [`${w.dir} depends on ${d}, which is in no layer`];
      return target.level <= w.level ? [`${w.dir} (${w.layer}) depends on ${d} (${target.layer})`] : [];
    }),
  );
}

/** The package graph as a Mermaid flowchart: one box per layer, an arrow per declared dependency. */
function mermaid() {
  const all = workspaces();
  const id = (name) =>
    name
      .replace(/^@research\//, '')
      .replace(/-app$/, '_app')
      .replace(/[^a-z_]/g, '_');
  const lines = ['flowchart TD'];
  LAYERS.forEach((layer) => {
    lines.push(`  subgraph layer_${layer.name}["${layer.name}: ${layer.does}"]`);
    for (const w of all.filter((x) => x.layer === layer.name)) lines.push(`    ${id(w.name)}["${w.dir}"]`);
    lines.push('  end');
  });
  for (const w of all) for (const d of declaredResearch(w.dir).sort()) lines.push(`  ${id(w.name)} --> ${id(d)}`);
  return lines.join('\n');
}

module.exports = { ROOT, LAYERS, workspaces, allowedImports, layerViolations, mermaid, manifest };
