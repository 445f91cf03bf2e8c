import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVER_LAYERS, foldersAbove } from './layers.mjs';

/**
 * The server's folders depend one way (docs/architecture.md, Layers): build/layers.mjs holds the
 * one ordered list, eslint.config.js makes it a lint error to import a folder above, and this
 * checks both ends: the rule fires on an upward import, and the list fits the real tree.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const server = join(root, 'server');

const serverFolders = () =>
  readdirSync(server, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** Every server folder a folder's code (not its tests) imports, by relative paths. */
function folderImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const folder of serverFolders()) {
    const imports = new Set<string>();
    for (const file of readdirSync(join(server, folder), { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(file) || file.endsWith('.test.ts')) continue;
      const path = join(server, folder, file);
      const text = readFileSync(path, 'utf8');
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = relative(server, resolve(dirname(path), match[1]!)).split('/');
        if (target.length > 1 && target[0] !== '..' && target[0] !== folder) imports.add(target[0]!);
      }
    }
    graph.set(folder, imports);
  }
  return graph;
}

/**
 * Every core/ module another core module (not a test) imports, by relative paths, type-only
 * imports and re-exports included: core/ is read by everything and must read down only.
 */
function coreFileImports(): Map<string, Set<string>> {
  const core = join(root, 'core');
  const modules = readdirSync(core, { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
  const known = new Set(modules.map((file) => file.replace(/\.tsx?$/, '')));
  const graph = new Map<string, Set<string>>();
  for (const file of modules) {
    const imports = new Set<string>();
    const text = readFileSync(join(core, file), 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = relative(core, resolve(dirname(join(core, file)), match[1]!)).replace(/\.(?:ts|tsx|js)$/, '');
      if (known.has(target)) imports.add(target);
      else if (known.has(`${target}/index`)) imports.add(`${target}/index`);
    }
    graph.set(file.replace(/\.tsx?$/, ''), imports);
  }
  return graph;
}

/** The groups of folders that reach each other through imports (Tarjan's strongly connected components), larger than one. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('server layers', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: root });
  });

  /** The messages of the layer rule for `code` as if it were the file at `filePath`. */
  async function layerErrors(code: string, filePath: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
    return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
  }

  it('fails lint on an import of a folder above, naming both and the rule', async () => {
    const errors = await layerErrors("import { funnelQuotes } from '../jobs/summary';\nexport const quotes = funnelQuotes;\n", 'server/businesses/layer-probe.ts');
    expect(errors).toEqual([expect.stringContaining('server/businesses may not import server/jobs, a layer above it (docs/architecture.md, Layers')]);
    // The lowest layer may import no folder at all; a whole folder counts as well as a file in it.
    expect(await layerErrors("import { listLeads } from '../businesses/leads';\nexport const leads = listLeads;\n", 'server/secrets/layer-probe.ts')).toHaveLength(1);
    expect(await layerErrors("import * as analysis from '../analysis';\nexport const a = analysis;\n", 'server/images/layer-probe.ts')).toHaveLength(1);
    // No folder imports the files that put the server together.
    expect(await layerErrors("import { createApp } from '../app';\nexport const app = createApp;\n", 'server/jobs/layer-probe.ts')).toHaveLength(1);
  });

  it('lets a folder import its own layer and the layers below, and keeps the domain free of HTTP', async () => {
    expect(await layerErrors("import { listLeads } from '../businesses/leads';\nexport const leads = listLeads;\n", 'server/jobs/layer-probe.ts')).toEqual([]);
    expect(await layerErrors("import { ledger } from '../credits/ledger';\nexport const l = ledger;\n", 'server/payments/layer-probe.ts')).toEqual([]);
    expect(await layerErrors("import { Hono } from 'hono';\nexport const app = new Hono();\n", 'server/analysis/layer-probe.ts')).toEqual([
      expect.stringContaining('Domain modules do not use HTTP; throw DomainError from core/errors.'),
    ]);
    expect(await layerErrors("import { Hono } from 'hono';\nexport const app = new Hono();\n", 'server/routes/layer-probe.ts')).toEqual([]);
  });

  it('places every folder under server/ once', () => {
    const listed = SERVER_LAYERS.flat();
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(serverFolders().sort());
  });

  it('finds no folder importing one above it, and no two folders importing each other, in the real tree', () => {
    const graph = folderImports();
    const upward = [...graph].flatMap(([folder, imports]) =>
      [...imports].filter((target) => foldersAbove(folder).includes(target)).map((target) => `${folder} -> ${target}`),
    );
    expect(upward).toEqual([]);
    expect(cycles(graph)).toEqual([]);
  });

  it('finds no import cycle among core/ modules: the settings schema and shared limits sit where their users read down to them', () => {
    const graph = coreFileImports();
    // The graph is real: core's modules import each other (a cycle of 11 of them was found this way).
    expect(graph.get('settings')).toEqual(new Set(['analysis', 'company-profile', 'crew-day', 'invoices', 'pricing', 'protection', 'quote-settings', 'units']));
    expect(cycles(graph)).toEqual([]);
  });

  it('sees a cycle where there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
