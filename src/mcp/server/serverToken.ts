import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { readText, writeAtomic } from '../../common/atomicFile';

// The bearer token of `gai mcp --http`: anyone who can reach the port could otherwise drive the
// desktop, so every request must carry it. It is kept in a file only its owner reads, and kept
// across restarts (a client stores the header it was given) until the person asks for a new one.

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

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface KeptToken {
  token: string;
  /** Made now (none was kept, the kept one was not a token, or a new one was asked for). */
  fresh: boolean;
  /** The kept file could be read by others: it is made private, and the person is told. */
  madePrivate: boolean;
}

/**
 * The token kept in `file`, or a new one written there (its folder made when missing, mode 700;
 * the file mode 600, written whole or not at all). `rotate`: always a new one.
 */
export async function keptToken(file: string, rotate: boolean): Promise<KeptToken> {
  if (!rotate) {
    const text = (await readText(file))?.trim();
    if (text !== undefined && TOKEN_SHAPE.test(text)) {
      const open = ((await stat(file)).mode & 0o077) !== 0;
      if (open) await chmod(file, 0o600);
      return { token: text, fresh: false, madePrivate: open };
    }
  }
  const token = newBearerToken();
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeAtomic(file, `${token}\n`); // created readable by its owner alone (mode 600)
  return { token, fresh: true, madePrivate: false };
}
