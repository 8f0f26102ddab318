import type { JsonSchema } from './schemas.js';

/** The security options of the document: the user's, as `openapi.securitySchemes` and `openapi.security` give them. */
interface SecurityOptions {
  readonly securitySchemes?: Record<string, JsonSchema>;
  readonly security?: Record<string, string[]>[];
}

/**
 * The scheme the document declares, as `bearer`, for an API with `authenticate` (unless
 * `openapi.securitySchemes` says otherwise): RFC 6750 bearer tokens, which `bearerJwt()` reads.
 *
 * @example
 * ```ts
 * document.components.securitySchemes; // { bearer: BEARER_SCHEME }
 * ```
 */
export const BEARER_SCHEME: JsonSchema = Object.freeze({
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description: 'Send `Authorization: Bearer <token>`. Without a token, or with one that is not good: 401.',
});

/**
 * Refuses a security requirement naming a scheme `securitySchemes` does not declare: the
 * document would be invalid, and a generated client could not know what to send.
 *
 * @example
 * ```ts
 * checkSecurity({ security: [{ bearer: [] }] }); // throws: "bearer" is not declared
 * ```
 */
export function checkSecurity(options: SecurityOptions): void {
  const declared = Object.keys(options.securitySchemes ?? {});
  for (const requirement of options.security ?? []) {
    for (const name of Object.keys(requirement)) {
      if (declared.includes(name)) continue;
      throw new TypeError(
        `openapi.security names the scheme "${name}", which openapi.securitySchemes does not declare (declared: ${declared.join(', ') || 'none'}), e.g. securitySchemes: { ${JSON.stringify(name)}: { type: 'http', scheme: 'bearer' } }`,
      );
    }
  }
}

/**
 * The document's security schemes and root requirements. What the user gives is kept as given;
 * an API that authenticates gets, for what is not given, the `bearer` scheme
 * ({@link BEARER_SCHEME}) and a requirement of any one of the declared schemes. An API that
 * does not authenticate requires nothing (`[]`, said explicitly) unless told otherwise.
 *
 * @example
 * ```ts
 * securityOf({}, true); // { securitySchemes: { bearer: BEARER_SCHEME }, security: [{ bearer: [] }] }
 * securityOf({}, false); // { securitySchemes: undefined, security: [] }
 * ```
 */
export function securityOf(
  options: SecurityOptions,
  authenticates: boolean,
): { securitySchemes: Record<string, JsonSchema> | undefined; security: Record<string, string[]>[] } {
  const securitySchemes = options.securitySchemes ?? (authenticates ? { bearer: { ...BEARER_SCHEME } } : undefined);
  const fallback = authenticates ? Object.keys(securitySchemes ?? {}).map((name) => ({ [name]: [] })) : [];
  return { securitySchemes, security: options.security ?? fallback };
}
