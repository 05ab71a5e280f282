import net from "node:net";
import type { PiiKind } from "../../db/schema/datasets";

/**
 * Detectors of personal data in one cell of text. Pure functions, tuned to miss little while staying
 * quiet on ordinary data (numbers, dates, times, ids, versions): payment cards need a known issuer
 * prefix and a valid Luhn checksum, IBANs a known length and a valid mod-97 checksum, US social
 * security numbers the dashed form outside the never-issued ranges, phone numbers a `+` prefix, a
 * trunk `0` or the North-American 3-3-4 grouping. Person names are only looked for in columns whose
 * name says they hold names.
 */
export interface Detection {
  kind: PiiKind;
  match: string;
}

// ---------------------------------------------------------------------------------------------------
// Checksums

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Issuer prefixes and lengths of the major card networks. */
function knownCardIssuer(d: string): boolean {
  const n = d.length;
  const p2 = Number(d.slice(0, 2));
  const p3 = Number(d.slice(0, 3));
  const p4 = Number(d.slice(0, 4));
  if (d[0] === "4") return n === 13 || n === 16 || n === 19; // Visa
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n === 16; // Mastercard
  if (p2 === 34 || p2 === 37) return n === 15; // American Express
  if (p4 === 6011 || (p3 >= 644 && p3 <= 649) || p2 === 65) return n >= 16 && n <= 19; // Discover
  if (p4 >= 3528 && p4 <= 3589) return n >= 16 && n <= 19; // JCB
  if ((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38 || p2 === 39) return n >= 14 && n <= 19; // Diners
  if (p2 === 62) return n >= 16 && n <= 19; // UnionPay
  return false;
}

const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  TN: 24,
  TR: 26,
  UA: 29,
  VG: 24,
  XK: 20,
};

export function ibanValid(raw: string): boolean {
  const iban = raw.replace(/\s+/g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const expected = IBAN_LENGTHS[iban.slice(0, 2)];
  if (expected === undefined || iban.length !== expected) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const v = ch >= "A" && ch <= "Z" ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of v) rem = (rem * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

export function ssnValid(area: string, group: string, serial: string): boolean {
  const a = Number(area);
  if (a === 0 || a === 666 || a >= 900) return false;
  if (group === "00" || serial === "0000") return false;
  const whole = `${area}-${group}-${serial}`;
  return whole !== "078-05-1120" && whole !== "219-09-9999"; // famous published specimen numbers
}

// ---------------------------------------------------------------------------------------------------
// Patterns

const CARD_GROUPED = /(?<![\d-])\d{4}([ -]?)\d{4}\1\d{4}\1\d{1,7}(?![\d-])/g;
const CARD_AMEX = /(?<![\d-])\d{4}([ -])\d{6}\1\d{4,5}(?![\d-])/g;
const CARD_PLAIN = /(?<![\d.,-])\d{13,19}(?![\d.,-])/g;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;
const SSN = /(?<![\w-])(\d{3})-(\d{2})-(\d{4})(?![\w-])/g;
const PHONE_INTL = /(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}(?![\w-])/g;
const PHONE_NANP = /(?<![\w(.-])(?:\(\d{3}\) ?|\d{3}[-. ])\d{3}[-. ]\d{4}(?![\w.-])/g;
const PHONE_TRUNK =
  /(?<![\w.-])0\d{1,4}[ /-]\d{3,4}[ -]\d{3,4}(?![\w.-])|(?<![\w.-])0\d(?:[ .]\d{2}){4}(?![\w.-])/g;
const IPV4 =
  /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\d.])/g;
const IPV6_CANDIDATE =
  /(?<![\w:.])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:(?<=:)\d{1,3}(?:\.\d{1,3}){3})?(?![\w:])/g;
const PERSON_NAME = /^\p{Lu}[\p{L}'’.-]*(?:[ ]+\p{Lu}[\p{L}'’.-]*){0,3}$/u;

const digitsOf = (s: string) => s.replace(/\D/g, "");

// ---------------------------------------------------------------------------------------------------
// E-mail addresses, found by a scan instead of a regular expression: the pattern
// `[A-Za-z0-9._%+-]+@label(.label)*.[A-Za-z]{2,24}` (labels of letters, digits and inner hyphens) as a
// backtracking regex costs time quadratic in a cell's length on crafted text (`a.a.a.…` without a
// top-level domain, long local parts without a domain). The scan looks at each `@` once, reads at most
// 64 characters back (the longest local part RFC 5321 allows) and at most 253 forward (the longest
// domain), and never reads a character twice for the same `@`: linear in the cell's length.

const MAX_LOCAL_PART = 64;
const MAX_DOMAIN = 253;

/** Counts the characters the e-mail scan inspects (tests and the bench check that it stays linear). */
export interface ScanCounter {
  steps: number;
}

const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** `[A-Za-z0-9._%+-]` */
const isLocalChar = (c: number) => isAlnum(c) || c === 46 || c === 95 || c === 37 || c === 43 || c === 45;

/** The end of the longest `label(.label)*.tld` starting at `from` (not followed by a letter or digit), or -1. */
function domainEnd(text: string, from: number, counter?: ScanCounter): number {
  const limit = Math.min(text.length, from + MAX_DOMAIN);
  let best = -1;
  let p = from;
  let first = true;
  while (p < limit) {
    // A top-level domain here: 2–24 letters, then no letter or digit.
    if (!first) {
      let q = p;
      while (q < limit && isAlpha(text.charCodeAt(q))) q++;
      if (counter) counter.steps += q - p + 1;
      const len = q - p;
      if (len >= 2 && len <= 24 && !(q < text.length && isAlnum(text.charCodeAt(q)))) best = q;
    }
    // Otherwise (or to look further) a whole label followed by a dot.
    if (!isAlnum(text.charCodeAt(p))) break;
    let q = p + 1;
    while (q < limit && (isAlnum(text.charCodeAt(q)) || text.charCodeAt(q) === 45)) q++;
    if (counter) counter.steps += q - p + 1;
    if (!isAlnum(text.charCodeAt(q - 1)) || q >= limit || text.charCodeAt(q) !== 46) break;
    p = q + 1;
    first = false;
  }
  return best;
}

/** E-mail addresses in `text`, left to right, not overlapping. */
export function findEmails(text: string, counter?: ScanCounter): { index: number; match: string }[] {
  const out: { index: number; match: string }[] = [];
  let from = 0;
  let at = text.indexOf("@");
  while (at !== -1) {
    let start = at;
    while (start > from && at - start < MAX_LOCAL_PART && isLocalChar(text.charCodeAt(start - 1))) start--;
    if (counter) counter.steps += at - start + 1;
    const end = start < at ? domainEnd(text, at + 1, counter) : -1;
    if (end > 0) {
      out.push({ index: start, match: text.slice(start, end) });
      from = end;
      at = text.indexOf("@", end);
    } else {
      at = text.indexOf("@", at + 1);
    }
  }
  return out;
}

function* matches(re: RegExp, text: string): Generator<RegExpExecArray> {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) yield m;
}

// ---------------------------------------------------------------------------------------------------
// Person-name columns

const NAME_COLUMN =
  /^(?:(?:first|last|middle|given|family|full|maiden|sur|fore|person|customer|patient|client|employee|contact|author|owner|member|student|holder|account_holder|cardholder|passenger|driver|buyer|seller|recipient|sender|applicant|candidate|guest|emergency_contact)_?)?names?$|^(?:surname|forename|fullname)s?$/;
const FIRST_OR_LAST = /(first|last|middle|given|family|sur|fore|maiden)_?name|surname|forename/;

/** Normalises `First Name`, `firstName`, `first-name` to `first_name`. */
export function normalizeColumnName(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}

/** 'single' columns hold one part of a name (first/last); 'full' columns a whole name; null: not a name column. */
export function nameColumnKind(column: string): "single" | "full" | null {
  const n = normalizeColumnName(column);
  if (!NAME_COLUMN.test(n)) return null;
  return FIRST_OR_LAST.test(n) ? "single" : "full";
}

function looksLikePersonName(value: string, kind: "single" | "full"): boolean {
  const v = value.trim();
  if (v.length < 2 || v.length > 60 || !PERSON_NAME.test(v)) return false;
  const tokens = v.split(/ +/);
  if (tokens.some((t) => t.length > 1 && t === t.toUpperCase())) return false; // codes and acronyms (USA, ACME)
  return kind === "single" ? tokens.length <= 2 : tokens.length >= 2;
}

// ---------------------------------------------------------------------------------------------------

/**
 * Only the first 10,000 characters of a cell are scanned (a longer cell is prose, not a field; its
 * personal data is almost always near its start). Every detector is linear in what it scans: the
 * e-mail scan above, and regular expressions whose repetitions are bounded ({1,4}, {13,19}…) or
 * unambiguous, so that no input makes them backtrack more than a constant per character.
 */
export const MAX_SCANNED_CELL_CHARS = 10_000;

export function detectInCell(value: string, nameKind: "single" | "full" | null = null): Detection[] {
  const out: Detection[] = [];
  const text = value.length > MAX_SCANNED_CELL_CHARS ? value.slice(0, MAX_SCANNED_CELL_CHARS) : value;
  if (text.length < 2) return out;
  // Each stretch of text counts once, for the most specific kind found first (a card number is not
  // also a phone number; an IBAN's digit groups are not a phone number). One mark per character
  // claimed: checking a match costs its length, not the number of matches before it.
  let taken: Uint8Array | null = null;
  const claimAt = (kind: PiiKind, start: number, match: string): void => {
    const end = start + match.length;
    taken ??= new Uint8Array(text.length);
    for (let i = start; i < end; i++) if (taken[i]) return;
    taken.fill(1, start, end);
    out.push({ kind, match });
  };
  const claim = (kind: PiiKind, m: RegExpExecArray): void => claimAt(kind, m.index, m[0]);

  if (text.includes("@")) for (const m of findEmails(text)) claimAt("email", m.index, m.match);
  if (/\d/.test(text)) {
    for (const re of [CARD_GROUPED, CARD_AMEX, CARD_PLAIN]) {
      for (const m of matches(re, text)) {
        const d = digitsOf(m[0]);
        if (d.length >= 13 && d.length <= 19 && knownCardIssuer(d) && luhnValid(d)) claim("payment_card", m);
      }
    }
    if (/[A-Z]{2}\d{2}/.test(text))
      for (const m of matches(IBAN, text)) if (ibanValid(m[0])) claim("iban", m);
    if (text.includes("-"))
      for (const m of matches(SSN, text)) if (ssnValid(m[1], m[2], m[3])) claim("national_id", m);
    for (const re of [PHONE_INTL, PHONE_NANP, PHONE_TRUNK]) {
      for (const m of matches(re, text)) {
        const d = digitsOf(m[0]);
        if (d.length >= 8 && d.length <= 15) claim("phone", m);
      }
    }
    if (text.includes(".")) for (const m of matches(IPV4, text)) claim("ip_address", m);
  }
  if (text.includes(":")) {
    for (const m of matches(IPV6_CANDIDATE, text)) {
      const hex = m[0].replace(/[^0-9A-Fa-f]/g, "");
      if (hex.length >= 4 && net.isIPv6(m[0]) && (m[0].includes("::") || m[0].split(":").length >= 8))
        claim("ip_address", m);
    }
  }
  if (nameKind && out.length === 0 && looksLikePersonName(text, nameKind))
    out.push({ kind: "person_name", match: text.trim() });
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Masking: enough to recognise the kind of value, never enough to recover it.

function keepLastDigits(s: string, keep: number): string {
  let seen = 0;
  const total = digitsOf(s).length;
  return s.replace(/\d/g, (d) => (++seen > total - keep ? d : "*"));
}

export function maskValue(kind: PiiKind, value: string): string {
  switch (kind) {
    case "email": {
      const [local, domain] = value.split("@");
      const parts = domain.split(".");
      const tld = parts.pop();
      return `${local[0]}***@${parts[0]?.[0] ?? ""}***.${tld}`;
    }
    case "payment_card":
      return keepLastDigits(value, 4);
    case "iban": {
      const compact = value.replace(/\s+/g, "");
      return `${compact.slice(0, 2)}${"*".repeat(compact.length - 6)}${compact.slice(-4)}`;
    }
    case "national_id":
      return keepLastDigits(value, 4);
    case "phone":
      return keepLastDigits(value, 2);
    case "ip_address":
      return value.includes(":") ? `${value.split(":")[0]}:****:…` : `${value.split(".")[0]}.*.*.*`;
    case "person_name":
      return value
        .trim()
        .split(/ +/)
        .map((t) => `${t[0]}***`)
        .join(" ");
  }
}
