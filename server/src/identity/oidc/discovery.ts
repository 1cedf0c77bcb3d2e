/** The parts of an OpenID Provider's discovery document the sign-in uses. */
export interface OidcMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  /** Asymmetric algorithms only: 'none' and HMAC are never accepted for id_tokens. */
  idTokenAlgorithms: string[];
}

export const DISCOVERY_TIMEOUT_MS = 5000;

const ASYMMETRIC = /^(?:RS|PS|ES)(?:256|384|512)$|^EdDSA$|^Ed25519$/;

export class DiscoveryError extends Error {
  override readonly name = 'DiscoveryError';
}

function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
}

function requireUrl(document: Record<string, unknown>, field: string): string {
  const value = document[field];
  if (typeof value !== 'string') throw new DiscoveryError(`discovery document has no ${field}`);
  try {
    new URL(value);
  } catch {
    throw new DiscoveryError(`discovery document has an invalid ${field}`);
  }
  return value;
}

/** Fetches `$issuer/.well-known/openid-configuration` and checks it really describes that issuer. */
export async function discover(issuer: string, timeoutMs = DISCOVERY_TIMEOUT_MS): Promise<OidcMetadata> {
  const response = await fetch(discoveryUrl(issuer), {
    headers: { accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new DiscoveryError(`discovery answered HTTP ${response.status}`);
  const document = (await response.json()) as Record<string, unknown>;
  const advertised = requireUrl(document, 'issuer');
  // OpenID Connect Discovery §4.3: the issuer in the document must be the one we asked for.
  if (advertised.replace(/\/$/, '') !== issuer.replace(/\/$/, '')) {
    throw new DiscoveryError(`discovery document names issuer ${advertised}, expected ${issuer}`);
  }
  const algorithms = Array.isArray(document.id_token_signing_alg_values_supported)
    ? document.id_token_signing_alg_values_supported.filter((a): a is string => typeof a === 'string' && ASYMMETRIC.test(a))
    : [];
  return {
    issuer: advertised,
    authorizationEndpoint: requireUrl(document, 'authorization_endpoint'),
    tokenEndpoint: requireUrl(document, 'token_endpoint'),
    jwksUri: requireUrl(document, 'jwks_uri'),
    idTokenAlgorithms: algorithms.length > 0 ? algorithms : ['RS256'],
  };
}
