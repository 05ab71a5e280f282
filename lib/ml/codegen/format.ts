/**
 * A tiny pretty-printer for generated code: calls, lists and objects are written on one line when
 * they fit, otherwise broken like black (Python) or prettier (JavaScript) would: Python first tries
 * all arguments on one indented line, then one per line; JavaScript hugs a single object argument.
 * Multi-line forms always end with a trailing comma.
 */

export type Expr = string | CallExpr | SeqExpr | KeyedExpr;

export interface CallExpr {
  kind: "call";
  callee: string;
  args: Expr[];
}

/** A bracketed sequence: Python list/tuple, JS array or object (`padded` puts spaces inside braces). */
export interface SeqExpr {
  kind: "seq";
  open: string;
  close: string;
  items: Expr[];
  padded?: boolean;
}

/** `key=value` (Python keyword argument) or `key: value` (JS property). */
export interface KeyedExpr {
  kind: "keyed";
  key: string;
  separator: "=" | ": ";
  value: Expr;
}

export interface CodeStyle {
  indentUnit: string;
  width: number;
  /** Python: break `f(a, b)` as `f(\n    a, b\n)` before going one per line. */
  joinArgsFirst: boolean;
  /** JavaScript: `f({` ... `})` for a single object or array argument. */
  hugSingleArg: boolean;
}

export const PYTHON_STYLE: CodeStyle = {
  indentUnit: "    ",
  width: 88,
  joinArgsFirst: true,
  hugSingleArg: false,
};
export const JS_STYLE: CodeStyle = { indentUnit: "  ", width: 100, joinArgsFirst: false, hugSingleArg: true };

export const call = (callee: string, ...args: Expr[]): CallExpr => ({ kind: "call", callee, args });
export const kwarg = (key: string, value: Expr): KeyedExpr => ({ kind: "keyed", key, separator: "=", value });
export const prop = (key: string, value: Expr): KeyedExpr => ({ kind: "keyed", key, separator: ": ", value });
export const list = (items: Expr[]): SeqExpr => ({ kind: "seq", open: "[", close: "]", items });
export const obj = (items: Expr[]): SeqExpr => ({ kind: "seq", open: "{", close: "}", items, padded: true });

export function flat(expr: Expr): string {
  if (typeof expr === "string") return expr;
  if (expr.kind === "keyed") return `${expr.key}${expr.separator}${flat(expr.value)}`;
  if (expr.kind === "call") return `${expr.callee}(${expr.args.map(flat).join(", ")})`;
  if (expr.items.length === 0) return `${expr.open}${expr.close}`;
  const inner = expr.items.map(flat).join(", ");
  return expr.padded ? `${expr.open} ${inner} ${expr.close}` : `${expr.open}${inner}${expr.close}`;
}

function parts(expr: CallExpr | SeqExpr): { open: string; close: string; items: Expr[] } {
  return expr.kind === "call"
    ? { open: `${expr.callee}(`, close: ")", items: expr.args }
    : { open: expr.open, close: expr.close, items: expr.items };
}

/**
 * Lines of `expr` when it starts at column `column` of a line indented by `indent` and is followed
 * by `tail` characters on its last line. The first line carries no indentation (the caller's prefix
 * precedes it); later lines are fully indented.
 */
function render(expr: Expr, indent: string, column: number, tail: number, style: CodeStyle): string[] {
  const oneLine = flat(expr);
  if (typeof expr === "string" || column + oneLine.length + tail <= style.width) return [oneLine];
  if (expr.kind === "keyed") {
    const head = `${expr.key}${expr.separator}`;
    const value = render(expr.value, indent, column + head.length, tail, style);
    return [head + value[0], ...value.slice(1)];
  }
  const { open, close, items } = parts(expr);
  if (items.length === 0) return [oneLine];
  const inner = indent + style.indentUnit;
  if (style.hugSingleArg && expr.kind === "call" && items.length === 1) {
    const only = items[0];
    if (typeof only !== "string" && only.kind === "seq") {
      const body = render(only, indent, column + open.length, tail + close.length, style);
      body[0] = open + body[0];
      body[body.length - 1] += close;
      return body;
    }
  }
  if (style.joinArgsFirst) {
    const joined = items.map(flat).join(", ");
    if (inner.length + joined.length <= style.width) return [open, inner + joined, indent + close];
  }
  const lines = [open];
  for (const item of items) {
    const sub = render(item, inner, inner.length, 1, style);
    sub[0] = inner + sub[0];
    sub[sub.length - 1] += ",";
    lines.push(...sub);
  }
  lines.push(indent + close);
  return lines;
}

/** One statement: `indent + prefix + expr + suffix`, broken over several lines when too long. */
export function statement(
  indent: string,
  prefix: string,
  expr: Expr,
  suffix: string,
  style: CodeStyle,
): string {
  const lines = render(expr, indent, indent.length + prefix.length, suffix.length, style);
  lines[0] = indent + prefix + lines[0];
  lines[lines.length - 1] += suffix;
  return lines.join("\n");
}

/** A Python float literal: 0.001, 1e-05, 0.5, 2.0. */
export function pyFloat(n: number): string {
  if (n !== 0 && Math.abs(n) < 1e-4) {
    // Python's repr switches to exponent notation below 1e-4 (JavaScript only below 1e-6).
    const [mantissa, exponent] = n.toExponential().split("e");
    return `${mantissa}e-${String(-Number(exponent)).padStart(2, "0")}`;
  }
  const s = String(n);
  return /^-?[0-9]+$/.test(s) ? `${s}.0` : s;
}

/** A Python tuple of ints: (3,) or (1, 28, 28). */
export function pyTuple(values: readonly number[]): string {
  return values.length === 1 ? `(${values[0]},)` : `(${values.join(", ")})`;
}

/** 61706 -> "61,706". */
export function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
