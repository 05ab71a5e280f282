/**
 * Object keys: `/`-separated segments of letters, digits and `_ . = + -`, each starting with a letter
 * or digit (so no `.`, `..` or hidden names, no empty segment, no leading `/`, no backslash, no NUL).
 * The same rule holds for both drivers, so a key valid on the local disk is valid in a bucket and can
 * never name a path outside the local root. Names starting with `.` are the stores' own (temporary
 * files, checksum records) and never listed.
 */

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.=+-]{0,199}$/;
const MAX_KEY_LENGTH = 1024;
const MAX_SEGMENTS = 16;

export class InvalidBlobKeyError extends Error {
  constructor(what: string) {
    // The key itself stays out of the message: it may come from a caller's data.
    super(`Invalid blob ${what}: segments of letters, digits and _ . = + - separated by /.`);
    this.name = "InvalidBlobKeyError";
  }
}

function validSegment(segment: string): boolean {
  return SEGMENT.test(segment) && !segment.includes("..");
}

/** Returns the key when it is valid, else throws InvalidBlobKeyError. */
export function assertBlobKey(key: string): string {
  if (typeof key !== "string" || key.length === 0 || key.length > MAX_KEY_LENGTH)
    throw new InvalidBlobKeyError("key");
  const segments = key.split("/");
  if (segments.length > MAX_SEGMENTS || !segments.every(validSegment)) throw new InvalidBlobKeyError("key");
  return key;
}

/**
 * A listing prefix: empty, or whole valid segments each followed by `/`, optionally ending with the
 * start of a segment (`datasets/dsv_`).
 */
export function assertBlobPrefix(prefix: string): string {
  if (typeof prefix !== "string" || prefix.length > MAX_KEY_LENGTH) throw new InvalidBlobKeyError("prefix");
  if (prefix === "") return prefix;
  const segments = prefix.split("/");
  const last = segments.pop() as string;
  if (segments.length >= MAX_SEGMENTS || !segments.every(validSegment))
    throw new InvalidBlobKeyError("prefix");
  if (last !== "" && !/^[A-Za-z0-9][A-Za-z0-9_.=+-]{0,199}$/.test(last))
    throw new InvalidBlobKeyError("prefix");
  if (last.includes("..")) throw new InvalidBlobKeyError("prefix");
  return prefix;
}
