import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// The bearer token of `gai mcp --http`: anyone who can reach the port could otherwise drive the
// desktop, so every request must carry it.

/** 32 random bytes, URL-safe base64 (43 characters). */
export function newBearerToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether an `Authorization` header carries `Bearer <token>`. Compared in constant time (over
 * digests, so a wrong length takes as long as a wrong byte).
 */
export function hasBearerToken(header: string | string[] | undefined, token: string): boolean {
  if (typeof header !== 'string') return false;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match?.[1]) return false;
  return timingSafeEqual(digest(match[1]), digest(token));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
