/** A unique-constraint violation (PostgreSQL 23505), as PGlite and node-postgres report it. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return (
    e?.code === "23505" || e?.cause?.code === "23505" || /duplicate key|unique constraint/i.test(String(err))
  );
}
