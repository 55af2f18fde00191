/**
 * The invoice hash's input from any document, not only ours: the three XPath transforms of the
 * Security Features Implementation Standard (section 2.3.3: no ext:UBLExtensions, no cac:Signature,
 * no cac:AdditionalDocumentReference whose cbc:ID is 'QR'), then Canonical XML 1.1. The fake and
 * the tests read documents written elsewhere (pretty-printed, with a declaration, comments), so
 * this parses what UBL invoices use: the declaration, elements, attributes, namespaces, text, CDATA
 * and comments; a DOCTYPE (entities of its own) and processing instructions are refused.
 */
import { escapeAttr, escapeText, NS } from "./xml.js";

export type Element = { name: string; attrs: [string, string][]; children: (Element | string)[] };

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (m, e: string) => {
    if (e.startsWith("#x")) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith("#")) return String.fromCodePoint(Number.parseInt(e.slice(1), 10));
    const v = ENTITIES[e];
    if (v === undefined) throw new SyntaxError(`XML: unknown entity ${m}`);
    return v;
  });
}

const NAME = /[^\s/>]+/y;
const ATTR = /\s+([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)')/y;
const END = /\s*(\/?)>/y;

/** The document's root element. */
export function parseXml(xml: string): Element {
  const src = xml.replace(/\r\n?/g, "\n");
  const stack: Element[] = [];
  let root: Element | undefined;
  let i = 0;
  const text = (t: string) => {
    const top = stack.at(-1);
    if (top) top.children.push(t);
    else if (t.trim()) throw new SyntaxError("XML: text outside the root element");
  };
  while (i < src.length) {
    const lt = src.indexOf("<", i);
    if (lt < 0) {
      text(decode(src.slice(i)));
      break;
    }
    if (lt > i) text(decode(src.slice(i, lt)));
    if (src.startsWith("<!--", lt)) i = src.indexOf("-->", lt) + 3;
    else if (src.startsWith("<![CDATA[", lt)) {
      const end = src.indexOf("]]>", lt);
      text(src.slice(lt + 9, end));
      i = end + 3;
    } else if (src.startsWith("<?", lt)) {
      // The declaration is not a node; UBL invoices carry no other processing instruction.
      if (stack.length) throw new SyntaxError("XML: processing instructions are not accepted");
      i = src.indexOf("?>", lt) + 2;
    } else if (src.startsWith("<!", lt)) throw new SyntaxError("XML: DOCTYPE is not accepted");
    else if (src[lt + 1] === "/") {
      const end = src.indexOf(">", lt);
      const name = src.slice(lt + 2, end).trim();
      const open = stack.pop();
      if (open?.name !== name) throw new SyntaxError(`XML: </${name}> closes <${open?.name}>`);
      i = end + 1;
    } else {
      NAME.lastIndex = lt + 1;
      const name = NAME.exec(src)?.[0];
      if (!name) throw new SyntaxError("XML: a start tag without a name");
      const element: Element = { name, attrs: [], children: [] };
      let pos = NAME.lastIndex;
      for (;;) {
        ATTR.lastIndex = pos;
        const m = ATTR.exec(src);
        if (!m) break;
        // Attribute-value normalisation: a literal tab or newline is a space; escaped ones stay.
        element.attrs.push([m[1]!, decode((m[3] ?? m[4]!).replace(/[\t\n]/g, " "))]);
        pos = ATTR.lastIndex;
      }
      END.lastIndex = pos;
      const rest = END.exec(src);
      if (!rest) throw new SyntaxError(`XML: malformed start tag <${name}>`);
      i = END.lastIndex;
      const parent = stack.at(-1);
      if (parent) parent.children.push(element);
      else if (root) throw new SyntaxError("XML: more than one root element");
      else root = element;
      if (!rest[1]) stack.push(element);
    }
  }
  if (!root || stack.length) throw new SyntaxError("XML: the document is not closed");
  return root;
}

type Scope = Map<string, string>;

const prefixOf = (name: string) => (name.includes(":") ? name.slice(0, name.indexOf(":")) : "");
const localOf = (name: string) => name.slice(name.indexOf(":") + 1);
const isNsDecl = (name: string) => name === "xmlns" || name.startsWith("xmlns:");

function scopeOf(e: Element, parent: Scope): Scope {
  const scope = new Map(parent);
  for (const [k, v] of e.attrs) if (isNsDecl(k)) scope.set(k === "xmlns" ? "" : k.slice(6), v);
  return scope;
}

export const textOf = (e: Element) => e.children.filter((c) => typeof c === "string").join("");

/** Whether the standard's transforms take `e` (and all it holds) out of the hashed form. */
function excluded(e: Element, scope: Scope): boolean {
  const ns = scope.get(prefixOf(e.name));
  const local = localOf(e.name);
  if (ns === NS.ext && local === "UBLExtensions") return true;
  if (ns === NS.cac && local === "Signature") return true;
  if (ns === NS.cac && local === "AdditionalDocumentReference")
    return e.children.some((c) => {
      if (typeof c === "string") return false;
      const childScope = scopeOf(c, scope);
      return childScope.get(prefixOf(c.name)) === NS.cbc && localOf(c.name) === "ID" && textOf(c) === "QR";
    });
  return false;
}

function render(e: Element, parentScope: Scope, out: string[]): void {
  const scope = scopeOf(e, parentScope);
  if (excluded(e, scope)) return;
  // Inclusive canonicalisation: a namespace is written where its binding differs from the parent's.
  const decls: [string, string][] = [];
  for (const [prefix, uri] of scope) {
    if (parentScope.get(prefix) === uri) continue;
    if (prefix === "" && uri === "" && !parentScope.get("")) continue;
    decls.push([prefix, uri]);
  }
  decls.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const attrs = e.attrs
    .filter(([k]) => !isNsDecl(k))
    .map(([k, v]) => ({ k, v, ns: k.includes(":") ? (scope.get(prefixOf(k)) ?? "") : "", local: localOf(k) }))
    .sort((a, b) => (a.ns !== b.ns ? (a.ns < b.ns ? -1 : 1) : a.local < b.local ? -1 : a.local > b.local ? 1 : 0));
  out.push(`<${e.name}`);
  for (const [p, uri] of decls) out.push(` ${p ? `xmlns:${p}` : "xmlns"}="${escapeAttr(uri)}"`);
  for (const a of attrs) out.push(` ${a.k}="${escapeAttr(a.v)}"`);
  out.push(">");
  for (const c of e.children) {
    if (typeof c !== "string") render(c, scope, out);
    else out.push(escapeText(c));
  }
  out.push(`</${e.name}>`);
}

/** The canonical form (C14N 1.1, without comments) of `xml` after the standard's three transforms. */
export function hashedForm(xml: string): string {
  const out: string[] = [];
  render(parseXml(xml), new Map(), out);
  return out.join("");
}

/** The first element, in document order, at the end of a path of local names (each a descendant). */
export function find(from: Element, ...path: string[]): Element | undefined {
  let at: Element | undefined = from;
  for (const local of path) at = at && findAll(at, local)[0];
  return at;
}

/** Every descendant whose local name is `local`, in document order. */
export function findAll(from: Element, local: string): Element[] {
  const out: Element[] = [];
  const walk = (e: Element) => {
    for (const c of e.children)
      if (typeof c !== "string") {
        if (localOf(c.name) === local) out.push(c);
        walk(c);
      }
  };
  walk(from);
  return out;
}
