/**
 * The only way a string chosen by a user (project, layer, column, label, metric and model names)
 * enters generated code or text: as a string literal of the target language (`pyStr`, `jsStr`, and
 * `pyValue` / `jsValue` for JSON values), a shell word (`shStr`), or Markdown text (`mdText`, `mdCode`).
 *
 * Docstrings and comments never hold raw user text either: a name shown there is written as its
 * literal (`for "My \"model\"\n".`), which holds no line break, cannot close a `"""` docstring (every
 * `"` in it is escaped) nor a `//` comment (every line terminator is escaped).
 *
 * Identifiers derived from names are made by `NameAllocator` / `pascalCase` (./naming), which keep
 * `[A-Za-z0-9_]` only; they never go through these functions.
 */

/** `text` with each lone surrogate (which no UTF-8 file can hold) replaced by U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/**
 * Characters written as escapes rather than as themselves: quotes and backslashes, controls (C0, DEL,
 * C1), format characters (bidirectional overrides and marks, zero-width characters, BOM), line and
 * paragraph separators, every space but U+0020, private-use and unassigned code points. What is left
 * is visible text that reads the same in an editor as in the string.
 */
const ESCAPED = /["\\]|[\p{C}\p{Z}]/gu;

const hex = (code: number, width: number) => code.toString(16).padStart(width, "0");

/** `text` between double quotes, with `codeEscape` spelling the code points that have no short escape. */
function quoted(text: string, codeEscape: (code: number) => string): string {
  const body = wellFormed(text).replace(ESCAPED, (char) => {
    if (char === " ") return char;
    if (char === '"' || char === "\\") return `\\${char}`;
    if (char === "\n") return "\\n";
    if (char === "\r") return "\\r";
    if (char === "\t") return "\\t";
    return codeEscape(char.codePointAt(0) ?? 0);
  });
  return `"${body}"`;
}

/**
 * A Python string literal (double quotes) that `ast.literal_eval` reads back as `text` exactly (lone
 * surrogates aside: they become U+FFFD). Uses only `\\ \" \n \r \t \xNN \uNNNN \UNNNNNNNN`.
 */
export function pyStr(text: string): string {
  return quoted(text, (code) =>
    code < 0x100 ? `\\x${hex(code, 2)}` : code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`,
  );
}

/**
 * A JavaScript string literal (double quotes) that evaluates to `text` (lone surrogates aside: they
 * become U+FFFD). `<` is escaped so that the literal can never form `</script>` or
 * `<!--`, and `/` after `*` so that it can never close a block comment.
 */
export function jsStr(text: string): string {
  return quoted(text, (code) =>
    code < 0x100 ? `\\x${hex(code, 2)}` : code < 0x10000 ? `\\u${hex(code, 4)}` : `\\u{${hex(code, 5)}}`,
  )
    .replace(/</g, "\\x3C")
    .replace(/\*\//g, "*\\/");
}

/**
 * One line of Markdown text showing `text`: controls, separators and runs of white space become one
 * space, and the characters Markdown or HTML would read as markup are backslash-escaped.
 */
export function mdText(text: string): string {
  return (
    oneLine(text)
      .replace(/[\\`*[\]<>|~&#]/g, (char) => `\\${char}`)
      // An underscore inside a word (val_accuracy) never starts or ends emphasis: it stays as it is.
      .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_")
  );
}

/** A Markdown code span showing `text` on one line, whatever backticks it holds ("" when empty). */
export function mdCode(text: string): string {
  const line = oneLine(text);
  if (!line) return "";
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** Controls, separators and runs of white space as one space, trimmed. */
function oneLine(text: string): string {
  return wellFormed(text)
    .replace(/[\p{C}\p{Z}\s]+/gu, " ")
    .trim();
}

type Spell = { str: (text: string) => string; none: string; yes: string; no: string };

function valueWith(value: unknown, indent: string, spell: Spell): string {
  if (value === null || value === undefined) return spell.none;
  if (typeof value === "boolean") return value ? spell.yes : spell.no;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : spell.none;
  if (typeof value === "string") return spell.str(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => inner + valueWith(item, inner, spell));
    return `[\n${items.join(",\n")}\n${indent}]`;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const items = entries.map(([k, v]) => `${inner}${spell.str(k)}: ${valueWith(v, inner, spell)}`);
    return `{\n${items.join(",\n")}\n${indent}}`;
  }
  return spell.none;
}

/**
 * A JSON value as a Python expression (dicts, lists, `pyStr` strings, numbers, True/False/None),
 * laid out like `JSON.stringify(value, null, 2)` with `indent` before each continuation line.
 */
export function pyValue(value: unknown, indent = ""): string {
  return valueWith(value, indent, { str: pyStr, none: "None", yes: "True", no: "False" });
}

/** A JSON value as a JavaScript expression (`jsStr` strings and keys), laid out like `pyValue`. */
export function jsValue(value: unknown, indent = ""): string {
  return valueWith(value, indent, { str: jsStr, none: "null", yes: "true", no: "false" });
}

/** A POSIX shell word that the shell reads as `text` exactly: single quotes, `'` written as `'\''`. */
export function shStr(text: string): string {
  return `'${wellFormed(text).replace(/'/g, `'\\''`)}'`;
}

/** A POSIX shell word for `text`: as it is when it holds only characters no shell reads specially, else `shStr`. */
export function shWord(text: string): string {
  return /^[A-Za-z0-9_./:=+,@%-]+$/.test(text) ? text : shStr(text);
}
