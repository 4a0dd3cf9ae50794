// Finds comments that point at what no longer exists: every `Name` quoted in a comment of src/,
// or in the prose of a page under src/ or docs/ (a folder's README, the architecture), that
// reads as code must still be there. A comment that names a class, a function or a file the
// code has since renamed or removed sends the next reader looking for nothing.
//
// What is checked, per backticked word in a comment:
// - `Name`, `nameOf`, `name()`: an identifier some source file declares or uses (a class, a
//   function, a variable, a property, a type);
// - `Type.member` (or `Type.member()`): when `Type` is a class, interface, type or enum declared
//   under src/, one of its declarations has a member of that name;
// - `file.ts` (or `dir/file.tsx`): a file of that name exists in the repository.
// Plain words (`full`, `claim`), paths of the service (`POST /chat`), channels
// (`consults:submit`) and code fragments are not names and are left alone. ESLint has no rule
// for this and TypeScript reads no comment, so it is written here, on TypeScript's own parser.
//
//   node scripts/check-comments.ts [root]   (exit 1 and one line per stale name when there are any)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface StaleName {
  file: string;
  line: number;
  name: string;
  why: string;
}

const SOURCE = /\.(ts|tsx|mts)$/;
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', '.git', 'release', 'coverage', 'test-results']);

function walk(dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) walk(join(dir, e.name), keep, out);
    } else if (keep(e.name)) out.push(join(dir, e.name));
  }
  return out;
}

/** Every comment of a source file, with the line it starts on. */
function comments(sf: ts.SourceFile): { text: string; line: number }[] {
  const found: { text: string; line: number }[] = [];
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, sf.languageVariant, sf.text);
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      found.push({
        text: scanner.getTokenText(),
        line: sf.getLineAndCharacterOfPosition(scanner.getTokenStart()).line + 1,
      });
    }
    // A template or a regular expression is rescanned so that its text is not taken for a comment.
    if (kind === ts.SyntaxKind.CloseBraceToken) scanner.reScanTemplateToken(false);
    if (kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) scanner.reScanSlashToken();
  }
  return found;
}

interface Index {
  /** Every identifier written in the code of src/ and test/. */
  identifiers: Set<string>;
  /** Members of each class, interface, type literal and enum declared in src/, by the type's name. */
  members: Map<string, Set<string>>;
  /** Every file name of the repository, and every path relative to it. */
  files: Set<string>;
}

function memberNames(node: ts.Node): string[] {
  const names: string[] = [];
  const add = (m: ts.Node) => {
    const name = (m as { name?: ts.Node }).name;
    if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name)))
      names.push(name.text);
  };
  if (ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isEnumDeclaration(node))
    node.members.forEach(add);
  if (ts.isTypeAliasDeclaration(node)) {
    const visit = (t: ts.Node) => {
      if (ts.isTypeLiteralNode(t)) t.members.forEach(add);
      else ts.forEachChild(t, visit);
    };
    visit(node.type);
  }
  // A constructor's parameter properties are members too.
  if (ts.isClassDeclaration(node))
    for (const m of node.members)
      if (ts.isConstructorDeclaration(m))
        for (const p of m.parameters) if (p.modifiers?.length && ts.isIdentifier(p.name)) names.push(p.name.text);
  return names;
}

function index(root: string): Index {
  const identifiers = new Set<string>();
  const members = new Map<string, Set<string>>();
  for (const file of [
    ...walk(join(root, 'src'), (n) => SOURCE.test(n)),
    ...walk(join(root, 'test'), (n) => SOURCE.test(n)),
    ...walk(join(root, 'scripts'), (n) => SOURCE.test(n)),
    ...readdirSync(root)
      .filter((n) => SOURCE.test(n))
      .map((n) => join(root, n)),
  ]) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) identifiers.add(node.text);
      if (ts.isStringLiteral(node) && /^[A-Za-z_$][\w$]*$/.test(node.text)) identifiers.add(node.text);
      // The words of a template (SQL, a command line): a column or a variable it names is a name too.
      if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node))
        for (const w of node.text.match(/[A-Za-z_][\w]*/g) ?? []) identifiers.add(w);
      const name = (node as { name?: ts.Node }).name;
      if (
        (ts.isClassDeclaration(node) ||
          ts.isInterfaceDeclaration(node) ||
          ts.isTypeAliasDeclaration(node) ||
          ts.isEnumDeclaration(node)) &&
        name &&
        ts.isIdentifier(name)
      ) {
        const set = members.get(name.text) ?? new Set<string>();
        for (const m of memberNames(node)) set.add(m);
        members.set(name.text, set);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  const files = new Set<string>();
  for (const file of walk(root, () => true)) {
    files.add(basename(file));
    files.add(relative(root, file));
  }
  return { identifiers, members, files };
}

const NAME = /^([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$#][\w$]*))?(?:\(\))?$/;
const FILE = /^[\w./-]*[\w-]\.(ts|tsx|mts|css|md|json|cjs|mjs)$/;

/** Whether a backticked word reads as a name of the code rather than a plain word. */
function looksLikeCode(first: string, member: string | undefined, call: boolean): boolean {
  return member !== undefined || call || /[A-Z]/.test(first.slice(1)) || /^[A-Z]/.test(first) || first.includes('_');
}

/** A Markdown page's prose, as one comment: fenced code blocks are blanked (their lines kept), as commands are not names. */
function prose(text: string): { text: string; line: number }[] {
  let fenced = false;
  const lines = text.split('\n').map((l) => {
    if (/^\s*(```|~~~)/.test(l)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : l;
  });
  return [{ text: lines.join('\n'), line: 1 }];
}

/** The comments of each source file of src/, and the prose of each page under src/ and docs/ (READMEs drift too). */
function texts(root: string): { file: string; parts: { text: string; line: number }[] }[] {
  const sources = walk(join(root, 'src'), (n) => SOURCE.test(n)).map((file) => ({
    file,
    parts: comments(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)),
  }));
  const pages = [
    ...walk(join(root, 'src'), (n) => n.endsWith('.md')),
    ...walk(join(root, 'docs'), (n) => n.endsWith('.md')),
  ];
  return [...sources, ...pages.map((file) => ({ file, parts: prose(readFileSync(file, 'utf8')) }))];
}

export function staleNames(root: string): StaleName[] {
  const idx = index(root);
  const stale: StaleName[] = [];
  for (const { file, parts } of texts(root)) {
    const page = file.endsWith('.md');
    for (const comment of parts) {
      for (const m of comment.text.matchAll(/`([^`\n]+)`/g)) {
        // A page names the files the app writes (`job.json`) and the environment it reads
        // (`$WEBHOOK_SECRET`): the first are not in the repository, the second are looked up by name.
        const word = m[1]!.trim().replace(/^\$/, '');
        if (page && word.endsWith('.json')) continue;
        // A page also quotes other systems' words: a host (`provetcloud.com`) or a field of
        // their API in snake_case (`partner_id`), which no code of ours need name.
        if (
          page &&
          (/^[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|org|net|io|dev|test|cloud)$/.test(word) ||
            /^[a-z]+(_[a-z0-9]+)+$/.test(word))
        )
          continue;
        const line = comment.line + comment.text.slice(0, m.index).split('\n').length - 1;
        const where = { file: relative(root, file), line, name: word };
        if (FILE.test(word)) {
          const name = word.replace(/^\.\//, '');
          if (!idx.files.has(name) && !idx.files.has(basename(name)))
            stale.push({ ...where, why: 'no file of that name in the repository' });
          continue;
        }
        const parts = NAME.exec(word);
        if (!parts) continue;
        const [, first = '', member] = parts;
        if (!looksLikeCode(first, member, word.endsWith('()'))) continue;
        if (!idx.identifiers.has(first)) {
          stale.push({ ...where, why: `no code names \`${first}\`` });
          continue;
        }
        const known = idx.members.get(first);
        if (member !== undefined && known && !known.has(member) && !idx.members.get(first)?.has(`#${member}`))
          stale.push({ ...where, why: `\`${first}\` has no member \`${member}\`` });
      }
    }
  }
  return stale;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
  const stale = staleNames(root);
  for (const s of stale) console.log(`${s.file}:${s.line}: \`${s.name}\`: ${s.why}`);
  if (stale.length > 0) {
    console.log(`${stale.length} name(s) in comments point at what no longer exists.`);
    process.exit(1);
  }
  console.log('Every name quoted in a comment of src/ or a page of src/ and docs/ still exists.');
}
