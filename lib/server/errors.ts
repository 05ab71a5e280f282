/**
 * Domain errors thrown by services. One error handler (http/problem.ts) maps them to RFC 9457
 * problem details; services never build HTTP responses themselves.
 */
export interface FieldError {
  path: string;
  message: string;
}

export class DomainError extends Error {
  /** RFC 9457 extension members (figures a client can act on), added beside the standard ones. */
  extensions?: Record<string, number | string>;

  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    /** The problem `type` slug when it is not the status's default (e.g. insufficient-credits). */
    readonly slug?: string,
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class BadRequestError extends DomainError {
  constructor(detail: string) {
    super(400, "Bad request", detail);
  }
}
export class UnauthorizedError extends DomainError {
  constructor(detail = "A valid credential is required.") {
    super(401, "Unauthorized", detail, undefined, { "WWW-Authenticate": 'Bearer realm="layerline"' });
  }
}
export class ForbiddenError extends DomainError {
  constructor(detail: string) {
    super(403, "Forbidden", detail);
  }
}
export class PaymentRequiredError extends DomainError {
  constructor(detail: string) {
    super(402, "Plan limit reached", detail);
  }
}
export class InsufficientCreditsError extends DomainError {
  constructor(detail: string) {
    super(402, "Insufficient credits", detail, undefined, undefined, "insufficient-credits");
  }
}
export class NotFoundError extends DomainError {
  constructor(what: string) {
    super(404, "Not found", `${what} was not found.`);
  }
}
export class ConflictError extends DomainError {
  constructor(detail: string) {
    super(409, "Conflict", detail);
  }
}
export class PayloadTooLargeError extends DomainError {
  constructor(detail: string, figures?: { limit_bytes: number; requested_bytes: number }) {
    super(413, "Payload too large", detail);
    if (figures) this.extensions = figures;
  }
}

/** The bytes would not fit in the owner's storage quota (402, `type` ending with `storage-quota`). */
export class StorageQuotaError extends DomainError {
  constructor(detail: string, figures: { used_bytes: number; limit_bytes: number; requested_bytes: number }) {
    super(402, "Storage quota exceeded", detail, undefined, undefined, "storage-quota");
    this.extensions = figures;
  }
}
export class ValidationError extends DomainError {
  constructor(detail: string, errors: FieldError[] = []) {
    super(422, "Validation failed", detail, errors);
  }
}
export class RateLimitedError extends DomainError {
  constructor(retryAfterSeconds: number) {
    super(429, "Too many requests", `Rate limit exceeded; retry in ${retryAfterSeconds} s.`, undefined, {
      "Retry-After": String(retryAfterSeconds),
    });
  }
}
