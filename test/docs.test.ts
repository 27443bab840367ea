/**
 * The Markdown a user reads on GitHub (README.md, docs/, plugins/) must not rot: a relative
 * link that points nowhere (the README once linked ../shared/spec, outside the repository, so
 * broken in every clone) fails here, and so does an anchor no heading makes; and so does a
 * comment of the code that cites a page the repository lacks (comments once cited a page of decisions
 * kept outside it), or a section the page does not have. The reference pages' tables of
 * defaults are held to the code: every configuration setting and every
 * parameter of the two operations is listed with the default the code applies.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../src/config/schema.ts';
import { openApiDocument } from '../src/openapi/document.ts';
import { loadThemes } from '../src/themes/load-themes.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Folders that are not the project's own documentation: installed packages, build output, generated benchmark data. */
const NOT_OURS = new Set(['node_modules', '.git', 'dist', '.bench-cache']);

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_OURS.has(entry.name)) return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.isFile() && entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The text a reader sees as prose: code blocks and code spans hold example syntax, not links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Relative link targets: [text](target) and <a href="target">, without web and mail addresses. */
function relativeLinks(markdown: string): string[] {
  const text = prose(markdown);
  const targets = [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
    ...[...text.matchAll(/<a\s[^>]*href="([^"]+)"/g)].map((match) => match[1]),
  ];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** The text of each heading of a page, in order (code blocks hold no headings). */
function headingsOf(markdown: string): string[] {
  const withoutCode = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  return [...withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map(([, heading]) => heading);
}

/** The anchors GitHub gives a page: one per heading (its slug, numbered when repeated) and each explicit id. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const heading of headingsOf(markdown)) {
    const slug = heading
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

/** Where comments name the project's pages: the code, its tests, scripts and benchmark. Swagger UI is others' code, served as it is. */
const COMMENTED_FOLDERS = ['src', 'plugins', 'test', 'scripts', 'bench'];
const VENDORED = join('src', 'openapi', 'swagger-ui');

function codeFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (NOT_OURS.has(entry.name) || relative(ROOT, path) === VENDORED) return [];
    if (entry.isDirectory()) return codeFiles(path);
    return entry.isFile() && /\.(ts|js|mjs|cjs|py|sh)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The comments of a source file, each in its place, the rest blanked: in TypeScript and
 * JavaScript what the compiler's parser leaves once strings, templates and regular expressions
 * (which may hold `//` or a page's name as data) are blanked; in Python and shell scripts
 * `#` comments and Python's docstrings.
 */
function commentsOf(file: string, text: string): string {
  if (!/\.[mc]?[jt]s$/.test(file)) {
    return [...text.matchAll(/"""[\s\S]*?"""|#.*$/gm)].map(([comment]) => comment).join('\n');
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const literals: [number, number][] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isRegularExpressionLiteral(node)) literals.push([node.getStart(source), node.end]);
    node.forEachChild(visit);
  };
  visit(source);
  let code = text;
  for (const [start, end] of literals) code = code.slice(0, start) + code.slice(start, end).replace(/[^\n]/g, ' ') + code.slice(end);
  return [...code.matchAll(/\/\/.*$|\/\*[\s\S]*?\*\//gm)].map(([comment]) => comment).join('\n');
}

/**
 * The pages a comment names, with the section it quotes right after the name when it does,
 * in the house's form: `docs/configuration.md, "Quotas and usage"`. A quote that the comment
 * wraps onto its next line is taken up to the line's end (a prefix of the heading).
 */
function citations(comments: string): { page: string; section?: string }[] {
  const named = /(?<![\w./:@-])((?:[\w.-]+\/)*[\w-]+\.md)(?![\w-])(,?[ \t]*(?:\n[ \t]*(?:\*|\/\/|#)?[ \t]*)?"([^"\n]+))?/g;
  return [...comments.matchAll(named)].map(([, page, , section]) => (section === undefined ? { page } : { page, section: section.trim() }));
}

/** Whether a page has a heading a citation quotes: the heading itself, or its first words (`"Thematic styling"`, `"Cost, load and`). */
function hasHeading(markdown: string, section: string): boolean {
  return headingsOf(markdown)
    .map((heading) => heading.replace(/`/g, ''))
    .some((heading) => heading.startsWith(section) && !/^\w/.test(heading.slice(section.length)));
}

/** What is wrong with the pages the comments of `file` cite: a page that is not there (from the repository's root, or beside the file), or a section it lacks. */
function citationProblems(file: string, text: string): string[] {
  // Most files name no page: they need no parse.
  if (!/\.md\b/.test(text)) return [];
  return citations(commentsOf(file, text)).flatMap(({ page, section }) => {
    const path = [join(ROOT, page), join(dirname(file), page)].find((candidate) => existsSync(candidate));
    const where = `${relative(ROOT, file)}: ${page}`;
    if (path === undefined) return [`${where} (no such page)`];
    if (section === undefined || hasHeading(readFileSync(path, 'utf8'), section)) return [];
    return [`${where}, "${section}" (no such heading)`];
  });
}

/** A table row's cells, trimmed; undefined for a line that is not a table row. */
function cells(line: string): string[] | undefined {
  if (!line.startsWith('|')) return undefined;
  return line
    .replace(/\\\|/g, '\u0000')
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.replace(/\u0000/g, '|').trim());
}

/** The first code span of a table cell: the name or value it states. */
const firstCode = (cell: string) => /`([^`]*)`/.exec(cell)?.[1];

/** Rows whose first cell is a code span, by that name: name → the cells after it. */
function namedRows(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of markdown.split('\n')) {
    const row = cells(line);
    const name = row && /^`[^`]+`$/.test(row[0]) ? firstCode(row[0]) : undefined;
    if (row && name !== undefined) rows.set(name, row.slice(1));
  }
  return rows;
}

/** The text of a page between the heading `## title` and the next heading of that level. */
function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`no section '## ${title}'`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** Every setting that has a single value by default, as a dotted path. */
function defaultSettings(value: unknown, path: string[] = []): [string, unknown][] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([name, inner]) => defaultSettings(inner, [...path, name]));
  }
  return Array.isArray(value) ? [] : [[path.join('.'), value]];
}

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const pages = markdownFiles(ROOT).map((file) => relative(ROOT, file));

describe('the documentation', () => {
  it('has the pages the README links to, and a licence', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', join('docs', 'README.md'), join('docs', 'api.md'), join('docs', 'configuration.md'), join('docs', 'ogc.md')]));
    expect(existsSync(join(ROOT, 'LICENSE'))).toBe(true);
  });

  it("has ARCHITECTURE.md name every folder of src/ and every plugin, so that the map cannot fall behind the house", () => {
    const map = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const folders = ['src', 'plugins'].flatMap((top) =>
      readdirSync(join(ROOT, top), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${entry.name}/`),
    );
    expect(folders.length).toBeGreaterThan(30);
    expect(folders.filter((folder) => !map.includes(`\`${folder}\``) && !map.includes(`\`${folder.slice(0, -1)}\``))).toEqual([]);
  });

  it('links only to files of the repository that exist, and to anchors that exist', () => {
    const broken = pages.flatMap((page) => {
      const markdown = read(page);
      return relativeLinks(markdown).flatMap((link) => {
        const [pathPart, anchor] = link.split('#', 2);
        const target = pathPart === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(pathPart));
        if (!target.startsWith(ROOT) || target === ROOT.slice(0, -1)) return [`${page}: ${link} (outside the repository)`];
        if (!existsSync(target)) return [`${page}: ${link} (no such file)`];
        if (anchor === undefined || !target.endsWith('.md') || statSync(target).isDirectory()) return [];
        return anchorsOf(readFileSync(target, 'utf8')).has(anchor) ? [] : [`${page}: ${link} (no such heading)`];
      });
    });
    expect(broken).toEqual([]);
  });

  it('finds the links it checks: a link to a missing file or heading is reported', () => {
    // The checks above pass vacuously if the link reader reads nothing; it must see these.
    const sample = 'See [a](docs/api.md), [b](../x.md#y), `[c](in-code.md)`, [d](https://example.org) and <a href="z.md">z</a>.\n```\n[e](fenced.md)\n```';
    expect(relativeLinks(sample)).toEqual(['docs/api.md', '../x.md#y', 'z.md']);
    expect([...anchorsOf('# A `where` filter (CQL2)\n## Browsing: OGC API – Features\n## Twice\n## Twice\n<a id="ogc"></a>')]).toEqual([
      'a-where-filter-cql2',
      'browsing-ogc-api--features',
      'twice',
      'twice-1',
      'ogc',
    ]);
    expect(relativeLinks(read('README.md'))).toContain('docs/api.md');
  });

  it('has every page a comment of the code names, and every section it quotes', () => {
    const problems = COMMENTED_FOLDERS.flatMap((folder) => codeFiles(join(ROOT, folder))).flatMap((file) => citationProblems(file, readFileSync(file, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('finds the citations it checks: a page or a section that is not there is reported', () => {
    // The check above passes vacuously if the comment reader reads nothing; it must see these.
    const file = join(ROOT, 'src', 'sample.ts');
    const sample = [
      '/**',
      ' * As docs/api.md, "Caching" says, and README.md,',
      ' * "Design notes"; docs/made-up.md; docs/api.md, "Errors',
      ' * and more" (a wrapped quote) and docs/api.md, "Cach" (a part of a word).',
      ' */',
      "const text = 'docs/in-a-string.md, \"no comment\"';",
      'const pattern = /docs\/in-a-regex\.md/;',
      '// ARCHITECTURE.md "No such heading"',
    ].join('\n');
    expect(citations(commentsOf(file, sample))).toEqual([
      { page: 'docs/api.md', section: 'Caching' },
      { page: 'README.md', section: 'Design notes' },
      { page: 'docs/made-up.md' },
      { page: 'docs/api.md', section: 'Errors' },
      { page: 'docs/api.md', section: 'Cach' },
      { page: 'ARCHITECTURE.md', section: 'No such heading' },
    ]);
    expect(citationProblems(file, sample)).toEqual([
      'src/sample.ts: docs/made-up.md (no such page)',
      'src/sample.ts: docs/api.md, "Cach" (no such heading)',
      'src/sample.ts: ARCHITECTURE.md, "No such heading" (no such heading)',
    ]);
  });

  it('lists every configuration setting with the default the code applies', () => {
    const rows = namedRows(read('docs/configuration.md'));
    // Folders inside the installed package (their place differs per install) and the basemap
    // providers (a map of ids, shown whole) are described in words.
    const described = (path: string) => ['dataDir', 'themesDir'].includes(path) || path.startsWith('basemaps.providers.');
    const wrong = defaultSettings(configSchema.parse({}))
      .filter(([path]) => !described(path))
      .flatMap(([path, value]) => {
        const row = rows.get(path);
        if (row === undefined) return [`${path}: not listed`];
        const shown = firstCode(row[0]);
        return shown === String(value) ? [] : [`${path}: listed as ${shown ?? row[0]}, the code says ${String(value)}`];
      });
    expect(wrong).toEqual([]);
  });

  it('lists every parameter of the images and map operations with its default, and no parameter they lack', () => {
    const config = configSchema.parse({});
    const document = openApiDocument({ limits: config.limits, ogc: config.ogc, metrics: true, remote: false, themes: loadThemes(config.themesDir) }) as {
      paths: Record<string, { get: { parameters: { name: string; required?: boolean; schema: { default?: unknown } }[] } }>;
    };
    const api = read('docs/api.md');
    const operations = [
      ['The images operation', '/REST/v1/shapefiles/images'],
      ['The map operation', '/REST/v1/shapefiles/map'],
    ];
    const wrong = operations.flatMap(([title, path]) => {
      const rows = namedRows(section(api, title));
      const parameters = document.paths[path].get.parameters;
      const missing = parameters.flatMap(({ name, required, schema }) => {
        const row = rows.get(name);
        if (row === undefined) return [`${title}: ${name} not listed`];
        const shown = firstCode(row[0]);
        if (schema.default !== undefined) {
          return shown === String(schema.default) ? [] : [`${title}: ${name} listed with default ${shown ?? row[0]}, the code says ${String(schema.default)}`];
        }
        // 'required unless …' (fid beside where) is not required on its own, as the code says.
        const documentedRequired = row[0] === 'required';
        return documentedRequired === Boolean(required) ? [] : [`${title}: ${name} listed as ${row[0]}, required: ${Boolean(required)}`];
      });
      const known = new Set([...parameters.map(({ name }) => name), 'key']);
      const extra = [...rows.keys()].filter((name) => !known.has(name)).map((name) => `${title}: ${name} is no parameter`);
      return [...missing, ...extra];
    });
    expect(wrong).toEqual([]);
  });
});
